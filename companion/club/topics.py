"""The MQTT topics of club night, in one place (docs/club.md describes each message).

Everything lives under ``<PROGRAM>/``; a board's topics under ``<PROGRAM>/<board>/``:

- ``status``  retained: ``{"online": true, ...}``; the board's last will sets it offline.
- ``table``   retained: the public table view, exactly what the table page shows.
- ``moves``   QoS 1: each move by its public name, numbered by the board's game and ply.
- ``results/<game uid>`` retained: a finished game's record, until the hub acknowledges it.
- ``remote/<peer board>`` QoS 1: moves of a game played across two boards.

The hub's own topics are under ``<PROGRAM>/hub/``, and so is what it says to one board, under
``<PROGRAM>/hub/<board>/`` (the broker's ACL lets only the hub write there, docs/club.md):

- ``ack``     retained: the results it has stored from that board (the board then clears them).
- ``pairing`` retained: the game this board is to start, with its players.
- ``refused`` retained: the board's name is in use by another board (its OLED says so).
"""

from __future__ import annotations

import re

from companion import PROGRAM

ROOT = PROGRAM
HUB = "hub"
BOARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
BOARD_NAME_RULE = f"a board's name is 1 to 32 letters, digits, - and _ (not {HUB!r})"


def valid_board_name(name: str) -> bool:
    """A board's name is one topic level: letters, digits, ``-`` and ``_`` (no ``/``, ``+``,
    ``#``), at most 32 characters, and not the hub's."""
    return bool(BOARD_NAME.fullmatch(name)) and name != HUB


def board_topic(board: str, *rest: str) -> str:
    return "/".join((ROOT, board, *rest))


def status(board: str) -> str:
    return board_topic(board, "status")


def table(board: str) -> str:
    return board_topic(board, "table")


def moves(board: str) -> str:
    return board_topic(board, "moves")


def result(board: str, game_uid: str) -> str:
    return board_topic(board, "results", game_uid)


def ack(board: str) -> str:
    """The hub's acknowledgements to ``board``: under the hub's tree, which only it writes."""
    return hub_topic(board, "ack")


def pairing(board: str) -> str:
    """The hub's pairing for ``board``: under the hub's tree, which only it writes."""
    return hub_topic(board, "pairing")


def refused(board: str) -> str:
    """The hub refuses ``board`` (its name is in use by another board)."""
    return hub_topic(board, "refused")


def remote(board: str, peer: str) -> str:
    """Where ``board`` sends its moves for ``peer`` (and ``peer`` listens)."""
    return board_topic(board, "remote", peer)


def hub_topic(*rest: str) -> str:
    return "/".join((ROOT, HUB, *rest))


def all_boards(kind: str) -> str:
    """The subscription to one kind of message of every board, e.g. ``all_boards("status")``."""
    return f"{ROOT}/+/{kind}"
