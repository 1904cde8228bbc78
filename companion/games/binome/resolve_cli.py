"""``binaryon binome resolve POSTULATE NAME=NN ...``: resolve one Binøme turn from the command
line. ``resolve_claims`` is the pure part; ``main(argv)`` (or ``add_arguments``/``run``, the
shape of companion/commands/*.py) is the command. Bad input: one line on stderr, status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from .deck import Deck, DeckError, builtin_deck, load_deck
from .postulates import BY_ID, get, parse_number
from .resolution import Resolution, resolve

VARIANTS = ("same-boat", "battle-royale")


def parse_claims(items: Sequence[str]) -> list[tuple[str, int]]:
    """['Ann=05', ...] -> [('Ann', 5), ...]; ValueError with a one-line reason."""
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for item in items:
        name, sep, number = item.rpartition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"{item!r}: expected NAME=NN (e.g. Ann=05)")
        if name in seen:
            raise ValueError(f"{name}: named twice")
        seen.add(name)
        try:
            out.append((name, parse_number(number)))
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return out


def resolve_claims(
    postulate: str,
    claims: Sequence[str],
    variants: Sequence[str] = (),
    deck: Deck | None = None,
) -> Resolution:
    """Resolve ``claims`` ('NAME=NN') on ``postulate`` with the deck's points."""
    get(postulate)
    for variant in variants:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    parsed = parse_claims(claims)
    if not parsed:
        raise ValueError("no claims: give NAME=NN for each claimant")
    deck = deck if deck is not None else builtin_deck()
    return resolve(
        postulate,
        parsed,
        deck[postulate],
        battle_royale="battle-royale" in variants,
        same_boat="same-boat" in variants,
    )


class _BadUsage(Exception):
    pass


class _OneLineParser(argparse.ArgumentParser):
    """Usage errors raise instead of printing the usage block, so main() says one line."""

    def error(self, message: str) -> NoReturn:
        raise _BadUsage(message)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="binome_command", metavar="ACTION", required=True)
    p = sub.add_parser("resolve", help="resolve one turn: who wins a postulate and why")
    p.add_argument("postulate", metavar="POSTULATE", help=f"one of: {', '.join(BY_ID)}")
    p.add_argument("claims", metavar="NAME=NN", nargs="+", help="a claimant and their number")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=VARIANTS,
        help="a rules variant (may be repeated)",
    )
    p.add_argument("--deck", metavar="FILE", help="deck file with the card points (TOML)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")  # fmt: skip


def fail(reason: str) -> int:
    print(f"binaryon: {reason}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        deck = load_deck(args.deck) if args.deck else None
        res = resolve_claims(args.postulate, args.claims, args.variant, deck)
    except DeckError as exc:
        return fail(str(exc))
    except ValueError as exc:
        return fail(str(exc).splitlines()[0])
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    print(f"{res.postulate}: {res.explanation}")
    gains = [f"{name} +{n}" for name, n in res.points if n]
    print(", ".join(gains) if gains else "nobody scores")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _OneLineParser(prog="binaryon binome", description="Binøme tools")
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except _BadUsage as exc:
        return fail(str(exc))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
