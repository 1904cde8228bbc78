"""``binaryon resume [GAME_ID]``: take a paused game up again; the daemon or simulator started
next carries on with it. The game in progress, if any, is paused in its turn. Refused while
the daemon holds the journal: there, hold menu (or type ``resume ID`` in the simulator)."""

from __future__ import annotations

import argparse

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    journal_path,
    open_journal,
    parse_game_id,
    refuse_while_daemon_runs,
)
from companion.journal.api import JournalError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game_id", metavar="GAME_ID", nargs="?", help="default: the latest paused game"
    )
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game_id = None if args.game_id is None else parse_game_id(args.game_id)
        path = journal_path(args)
        try:
            refuse_while_daemon_runs(path, "take up a game")
        except JournalError as e:
            raise JournalError(f"{e} (or hold menu on the board to take it up)") from None
        with open_journal(args, write=True) as journal:
            if game_id is None:
                paused = journal.paused(1)
                if not paused:
                    return fail("no paused game (see binaryon history)")
                game_id = paused[0].id
            entry = journal.load(game_id)
            if entry is None:
                return fail(f"no game {game_id} in the journal (see binaryon history)")
            other = journal.resume(game_id)
            left = journal.load(other) if other is not None else None
    except JournalError as e:
        return fail(str(e))
    moves = f"{entry.move_count} move" + ("" if entry.move_count == 1 else "s")
    said = f"game {game_id} ({entry.game}, {moves}) is the game in progress"
    if left is not None:
        said += f"; game {left.id} {left.status.replace('_', ' ')}"
    print(said)
    return 0
