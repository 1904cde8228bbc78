"""``binaryon event EVENT.toml ACTION``: run a tournament without the hub: pair the next
round, enter a result, correct one (the arbiter), show the rounds and standings, export
every game as one file of records. The games are kept beside the event file
(``NAME.event.sqlite``, or ``--store``); docs/club.md, *Tournaments*."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.cli.journal_args import fail
from companion.core.terminal_text import for_terminal

ACTIONS = ("pair", "result", "correct", "standings", "show", "export")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("event", metavar="EVENT.toml", help="the event file (docs/club.md)")
    parser.add_argument(
        "action",
        choices=ACTIONS,
        help="pair: the next round; result PAIRING RESULT; correct PAIRING RESULT --by NAME "
        "--why TEXT (RESULT may be replay); standings; show: rounds and corrections; export",
    )
    parser.add_argument("pairing", nargs="?", metavar="PAIRING", help="e.g. r2-t3")
    parser.add_argument("result", nargs="?", metavar="RESULT", help="1-0, 0-1, draw, +-, -+, --")
    parser.add_argument("--by", metavar="NAME", help="correct: the arbiter making it")
    parser.add_argument("--why", metavar="TEXT", help="correct: the reason, kept with it")
    parser.add_argument("--store", metavar="FILE", help="the event's games (default: beside it)")
    parser.add_argument("--json", action="store_true", help="standings, show: as JSON")
    parser.add_argument("-o", "--output", metavar="FILE", help="export: write here")


def run(args: argparse.Namespace) -> int:
    from companion.club.event.spec import EventError, load_event
    from companion.club.event.store import EventStore, EventStoreError, store_path
    from companion.club.event.swiss import PairingError
    from companion.club.event.tournament import EventStateError

    try:
        load_event(args.event)  # the file's own problems first, in one line
        text = Path(args.event).read_text(encoding="utf-8")
        with EventStore(args.store or store_path(args.event)) as store:
            t = store.open_event(text, args.event)
            code = _act(args, t)
            store.save(t)
            return code
    except (EventError, EventStoreError, EventStateError, PairingError) as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"{args.event}: {e.strerror or e}")


def _need(args: argparse.Namespace, *names: str) -> None:
    from companion.club.event.tournament import EventStateError

    for name in names:
        if not getattr(args, name):
            raise EventStateError(f"{args.action} needs {name.upper()}")


def _act(args: argparse.Namespace, t) -> int:
    from companion.club.event.records import export_event
    from companion.club.event.standings import standings
    from companion.club.event.tournament import now_iso

    if args.action == "pair":
        games = t.pair_next()
        print(f"round {games[0].round} of {t.event.rounds}")
        for g in games:
            print(for_terminal(_line(g)))
    elif args.action == "result":
        _need(args, "pairing", "result")
        g = t.enter_result(args.pairing, args.result)
        print(for_terminal(_line(g)))
        if t.round_complete() and not t.finished():
            print(f"round {t.round} is complete: binaryon event {args.event} pair")
    elif args.action == "correct":
        _need(args, "pairing", "result", "by", "why")
        fix = t.correct(args.pairing, args.result, args.by, args.why, now_iso())
        print(for_terminal(f"{fix.pairing}: {fix.old or '*'} -> {fix.new} by {fix.who}: {fix.why}"))
    elif args.action == "standings":
        table = standings(t)
        if args.json:
            print(json.dumps({"event": t.event.name, "round": t.round,
                              "tiebreaks": list(t.event.tiebreaks),
                              "standings": [s.as_json() for s in table]}))  # fmt: skip
        else:
            head = " ".join(f"{tb:>16}" for tb in t.event.tiebreaks)
            print(f"{'#':>3} {'name':<24} {'points':>6} {head}")
            for s in table:
                tbs = " ".join(f"{s.tiebreaks[tb]:>16g}" for tb in t.event.tiebreaks)
                print(for_terminal(f"{s.rank:>3} {s.name:<24} {s.points:>6g} {tbs}"))
    elif args.action == "show":
        if args.json:
            print(json.dumps({"event": t.event.name, **t.to_dict()}))
        else:
            for g in sorted(t.games, key=lambda g: (g.round, g.table, g.attempt)):
                print(for_terminal(_line(g)))
            for c in t.corrections:
                print(for_terminal(f"{c.at} {c.pairing}: {c.old or '*'} -> {c.new} by {c.who}: "
                                   f"{c.why}"))  # fmt: skip
    elif args.action == "export":
        text = export_event(t)
        if args.output and args.output != "-":
            from companion.cli.export import write_output

            write_output(args.output, text)
            print(f"{text.count('[Game ')} games written to {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(text)
    return 0


def _line(g) -> str:
    board = f" on {g.board}" if g.board else ""
    if g.black is None:
        return f"{g.pairing}: {g.white} has the bye"
    void = " (replayed)" if g.void else ""
    return f"{g.pairing}{board}: {g.white} - {g.black}  {g.result or '*'}{void}"
