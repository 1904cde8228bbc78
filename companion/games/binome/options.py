"""Binøme game options: the players and their seats, variants, solo mode and the card
points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..base import Option, resolve_options
from .deck import BUILTIN_NAME, DeckError, load_deck, parse_deck_text

MAX_PLAYERS: Final = 7
MAX_NAME: Final = 12
RESERVED: Final = frozenset({"roll", "draw", "write", "claim", "pass"})
BOT_PREFIX: Final = "bot"
SEED_RANGE: Final = 1 << 63  # a drawn solo seed: 0 .. 2**63 - 1


def _check_players(value: str) -> str | None:
    try:
        player_names(value)
    except ValueError as exc:
        return str(exc)
    return None


def _check_points(value: str) -> str | None:
    try:
        parse_deck_text(value, "points")
    except DeckError as exc:
        return str(exc).removeprefix("points: ")
    return None


OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", "2", "player names in seat order (a,b,c) or a count 1..7",
           check=_check_players),
    Option("chair", "", "first chairperson (default: the first player)"),
    Option("secrets", False, "Game of Secrets: claims made secretly, all at once", kind=bool),
    Option("battle_royale", False, "Battle Royale: +1 to the winner when 3+ claimed",
           kind=bool),
    Option("transparency", False, "announce a player left with one unused number", kind=bool),
    Option("same_boat", False, "In the Same Boat: after identical numbers cancel, every "
           "claimant left scores", kind=bool),
    Option("solo", 0, "virtual opponents (solo mode: one player against 1..6)", kind=int,
           minimum=0, maximum=6),
    Option("seed", 0, "seed of the virtual opponents' choices (solo mode; default: drawn at "
           "random for each game, kept secret until it ends)", kind=int),
    Option("points", "", "card points id=N|X,... for all 16 cards ('' = the deck file)",
           check=_check_points),
    Option("deck", "", "deck file (TOML) with the card points ('' = the shipped deck.toml); "
           "read when the game starts, unless points are given", builtins=(BUILTIN_NAME,)),
    Option("phoneless", "", "players without a phone (a,b): the chairperson enters their "
           "sheet and claims on the chair's own page"),
    Option("paper", False, "paper sheets: players keep their own sheets and say claim or "
           "pass, then their number when asked (by voice); the companion resolves from it",
           kind=bool),
    Option("step_seconds", 0, "seconds each step gives (writing a digit, a claim): a digit "
           "not written goes to the first free half, a claim not made is a pass (0 = no limit)",
           kind=int, minimum=0, maximum=600),
)  # fmt: skip


def player_names(value: str | int) -> tuple[str, ...]:
    """'3' -> ('p1', 'p2', 'p3'); 'Ann,Bob' -> ('Ann', 'Bob'); ValueError with a reason."""
    text = str(value).strip()
    if text.isascii() and text.isdigit():
        count = int(text)
        if not 1 <= count <= MAX_PLAYERS:
            raise ValueError(f"{count} players: 1..{MAX_PLAYERS} play")
        return tuple(f"p{i}" for i in range(1, count + 1))
    names = tuple(n.strip() for n in text.split(","))
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"{len(names)} players: 1..{MAX_PLAYERS} play")
    seen: set[str] = set()
    for name in names:
        if not name:
            raise ValueError("empty player name")
        if len(name) > MAX_NAME:
            raise ValueError(f"{name!r}: names have at most {MAX_NAME} characters")
        if not all(c.isalnum() or c in "-_" for c in name) or name[0] in "-_":
            raise ValueError(f"{name!r}: use letters, digits, - or _")
        if name.isdigit():
            raise ValueError(f"{name!r}: a name cannot be a number")
        if name.lower() in RESERVED:
            raise ValueError(f"{name!r} is a reserved word")
        if name.lower() in seen:
            raise ValueError(f"{name!r} is named twice")
        seen.add(name.lower())
    return names


def resolve_game_options(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults overlaid with ``given``, checked together; ``points`` is made explicit so a
    record keeps the card values it was played with."""
    given = dict(given or {})
    if isinstance(given.get("players"), int) and not isinstance(given["players"], bool):
        given["players"] = str(given["players"])
    out = resolve_options(OPTIONS, given)
    humans = player_names(out["players"])
    if out["solo"] and "seed" not in given:
        # drawn, never a default: the virtual players' sheets follow from the seed and the
        # public moves, so a known seed would show them (a game's record keeps it)
        import secrets  # (a new solo game only: it loads OpenSSL's library)

        out["seed"] = secrets.randbelow(SEED_RANGE)
    if out["solo"]:
        if len(humans) != 1:
            raise ValueError("solo: exactly one player plays against the virtual ones")
        bots = [f"{BOT_PREFIX}{i}" for i in range(1, out["solo"] + 1)]
        if humans[0].lower() in bots:
            raise ValueError(f"players: {humans[0]!r} is a virtual player's name")
    if out["paper"] and out["secrets"]:
        raise ValueError("paper: claims are said aloud, so not with secrets")
    names = seat_order(out)
    if out["chair"]:
        match = [n for n in names if n.lower() == out["chair"].strip().lower()]
        if not match:
            raise ValueError(f"chair: {out['chair']!r} is not a player")
        out["chair"] = match[0]
    if out["phoneless"].strip():
        chosen = []
        for wanted in out["phoneless"].split(","):
            match = [n for n in names if n.lower() == wanted.strip().lower()]
            if not match:
                raise ValueError(f"phoneless: {wanted.strip()!r} is not a player")
            chosen.append(match[0])
        out["phoneless"] = ",".join(dict.fromkeys(chosen))
    if not out["points"].strip() and out["deck"].strip():
        try:
            out["points"] = load_deck(out["deck"].strip()).text()
        except DeckError as exc:
            raise ValueError(f"deck: {exc}") from None
    out["points"] = parse_deck_text(out["points"], "points").text()
    return out


def seat_order(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Every player in seat order: the human players, then the virtual ones."""
    humans = player_names(options["players"])
    bots = tuple(f"{BOT_PREFIX}{i}" for i in range(1, int(options.get("solo", 0)) + 1))
    return humans + bots
