"""``binaryon event EVENT.toml ACTION``: run a tournament without the hub: pair the next
round, enter a result, correct one (the arbiter), show the rounds and standings, export
every game as one file of records or the event as a FIDE TRF file, or make a new event
from a TRF file. The games are kept beside the event file (``NAME.event.sqlite``, or
``--store``); docs/club.md, *Tournaments*.

Results are typed as the docs write them, forfeits too: ``-+``, ``+-`` and ``--`` are read
as the result, not as options or argparse's end of options (``_results_as_typed``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.cli.journal_args import fail
from companion.core.terminal_text import for_terminal

ACTIONS = ("pair", "result", "correct", "standings", "show", "export", "new")
FORFEITS = ("-+", "+-", "--")
_TYPED = "result:"  # a forfeit typed as a result, kept from argparse's reading of "-"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("event", metavar="EVENT.toml", help="the event file (docs/club.md)")
    parser.add_argument(
        "action",
        choices=ACTIONS,
        help="pair: the next round; result PAIRING RESULT; correct PAIRING RESULT --by NAME "
        "--why TEXT (RESULT may be replay); standings; show: rounds and corrections; export "
        "(--trf: a FIDE TRF file); new --from-trf FILE: EVENT.toml from a TRF file",
    )
    parser.add_argument("pairing", nargs="?", metavar="PAIRING", help="e.g. r2-t3")
    parser.add_argument("result", nargs="?", metavar="RESULT", help="1-0, 0-1, draw, +-, -+, --")
    parser.add_argument("--by", metavar="NAME", help="correct: the arbiter making it")
    parser.add_argument("--why", metavar="TEXT", help="correct: the reason, kept with it")
    parser.add_argument("--store", metavar="FILE", help="the event's games (default: beside it)")
    parser.add_argument("--json", action="store_true", help="pair, standings, show: as JSON")
    parser.add_argument("-o", "--output", metavar="FILE", help="export: write here")
    parser.add_argument(
        "--trf", action="store_true", help="export: the event as a FIDE TRF-16 file"
    )
    parser.add_argument(
        "--from-trf", metavar="FILE", help="new: make EVENT.toml and its games from a TRF file"
    )
    parser.add_argument(
        "--game", metavar="NAME", help="new: the game, when the TRF file does not say"
    )
    plain = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        return plain(_results_as_typed(args), namespace)

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign]


def _results_as_typed(args: list[str] | None) -> list[str] | None:
    """``result PAIRING -+`` and ``correct PAIRING --``: the forfeit after the pairing marked
    as a result, so argparse takes it for the positional it is."""
    if not args:
        return args
    out = list(args)
    for i, word in enumerate(out[:-2]):
        if word in ("result", "correct") and out[i + 2] in FORFEITS:
            out[i + 2] = _TYPED + out[i + 2]
            break
    return out


def run(args: argparse.Namespace) -> int:
    from companion.club.event.spec import EventError, load_event
    from companion.club.event.store import EventStore, EventStoreError, store_path
    from companion.club.event.swiss import PairingError
    from companion.club.event.tournament import EventStateError
    from companion.club.event.trf import TrfError

    if args.result:
        args.result = args.result.removeprefix(_TYPED)
    try:
        if args.action == "new":
            return _new(args)
        load_event(args.event)  # the file's own problems first, in one line
        text = Path(args.event).read_text(encoding="utf-8")
        with EventStore(args.store or store_path(args.event)) as store:
            t = store.open_event(text, args.event)
            code = _act(args, t)
            store.save(t)
            return code
    except (EventError, EventStoreError, EventStateError, PairingError, TrfError) as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"{args.event}: {e.strerror or e}")


def _need(args: argparse.Namespace, *names: str) -> None:
    from companion.club.event.tournament import EventStateError

    for name in names:
        if not getattr(args, name):
            raise EventStateError(f"{args.action} needs {name.upper()}")


def _new(args: argparse.Namespace) -> int:
    """``new --from-trf FILE``: EVENT.toml and its games from a TRF file (neither there yet)."""
    from companion.club.event.store import EventStore, store_path
    from companion.club.event.tournament import EventStateError
    from companion.club.event.trf import tournament_from_trf

    if not args.from_trf:
        raise EventStateError("new needs --from-trf FILE")
    target = Path(args.event)
    store = Path(args.store) if args.store else store_path(target)
    for there in (target, store):
        if there.exists():
            raise EventStateError(f"{there} exists already: a new event needs a new file")
    data = Path(args.from_trf).read_bytes()
    if len(data) > 1 << 20:
        raise EventStateError(f"{args.from_trf}: larger than 1 MiB: not a TRF file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # older TRF files
    toml, t = tournament_from_trf(text, args.from_trf, args.game)
    target.write_text(toml, encoding="utf-8")
    with EventStore(store) as s:
        s.open_event(toml, str(target))
        s.save(t)
    done = sum(1 for g in t.games if g.result is not None and g.black is not None)
    print(
        for_terminal(
            f"{target}: {t.event.name}, {len(t.event.players)} players, round {t.round} of "
            f"{t.event.rounds}, {done} results from {args.from_trf}"
        )
    )
    return 0


def _act(args: argparse.Namespace, t) -> int:
    from companion.club.event.records import export_event
    from companion.club.event.standings import standings
    from companion.club.event.tournament import now_iso

    if args.action == "pair":
        games = t.pair_next()
        if args.json:
            print(json.dumps(_round_json(t, games[0].round)))
        else:
            print(f"round {games[0].round} of {t.event.rounds}")
            print(_heading())
            info = _numbers_and_scores(t, games[0].round)
            for g in games:
                print(for_terminal(_line(g, info)))
    elif args.action == "result":
        _need(args, "pairing", "result")
        g = t.enter_result(args.pairing, args.result)
        print(for_terminal(_line(g, _numbers_and_scores(t, g.round))))
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
            print(f"{'#':>3} {'no':>3} {'name':<24} {'points':>6} {head} colours")
            for s in table:
                tbs = " ".join(f"{s.tiebreaks[tb]:>16g}" for tb in t.event.tiebreaks)
                print(for_terminal(f"{s.rank:>3} {s.number:>3} {s.name:<24} {s.points:>6g} "
                                   f"{tbs} {s.colours}"))  # fmt: skip
    elif args.action == "show":
        if args.json:
            rounds = [_round_json(t, r) for r in range(1, t.round + 1)]
            print(json.dumps({"event": t.event.name, **t.to_dict(),
                              "players": _players_json(t), "rounds": rounds}))  # fmt: skip
        else:
            print(_heading())
            for r in range(1, t.round + 1):
                info = _numbers_and_scores(t, r)
                games = [g for g in t.games if g.round == r]
                for g in sorted(games, key=lambda g: (g.table, g.attempt)):
                    print(for_terminal(_line(g, info)))
            for c in t.corrections:
                print(for_terminal(f"{c.at} {c.pairing}: {c.old or '*'} -> {c.new} by {c.who}: "
                                   f"{c.why}"))  # fmt: skip
    elif args.action == "export":
        if args.trf:
            from companion.club.event.trf import export_trf

            text = export_trf(t)
            what = f"{len(t.event.players)} players, {t.round} rounds"
        else:
            text = export_event(t)
            what = f"{text.count('[Game ')} games"
        if args.output and args.output != "-":
            from companion.cli.export import write_output

            write_output(args.output, text)
            print(f"{what} written to {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(text)
    return 0


def _numbers_and_scores(t, round_number: int) -> dict[str, tuple[int, float]]:
    """Each player's pairing number and score before ``round_number``."""
    ranked = [p.name for p in t.event.ranked()]
    score = dict.fromkeys(ranked, 0.0)
    round_robin = t.event.pairing == "round-robin"
    for g in t.live():
        if g.round >= round_number or g.result is None:
            continue
        if g.black is None:
            score[g.white] += 0.0 if round_robin else t.event.bye
            continue
        pw, pb = g.points()
        score[g.white] += pw
        score[g.black] += pb
    return {name: (i + 1, score[name]) for i, name in enumerate(ranked)}


def _players_json(t) -> list[dict]:
    return [
        {"number": i + 1, "name": p.name, "rating": p.rating}
        for i, p in enumerate(t.event.ranked())
    ]


def _round_json(t, round_number: int) -> dict:
    """A round's games: table, pairing, board, white and black (pairing number, name, score
    before the round; black null: the bye), result."""
    info = _numbers_and_scores(t, round_number)

    def side(name: str | None) -> dict | None:
        if name is None:
            return None
        number, score = info[name]
        return {"number": number, "name": name, "score": score}

    games = sorted(t.live(round_number), key=lambda g: g.table)
    return {
        "round": round_number,
        "rounds": t.event.rounds,
        "games": [
            {
                "table": g.table,
                "pairing": g.pairing,
                "board": g.board,
                "white": side(g.white),
                "black": side(g.black),
                "result": g.result,
            }
            for g in games
        ],
    }


def _heading() -> str:
    return "pairing: (no) white score v (no) black score  result  said by name"


def _line(g, info: dict[str, tuple[int, float]] | None = None) -> str:
    def who(name: str) -> str:
        if info is None:
            return name
        number, score = info[name]
        return f"({number}) {name} {score:g}"

    board = f" on {g.board}" if g.board else ""
    if g.black is None:
        return f"{g.pairing}: {who(g.white)} has the bye"
    void = " (replayed)" if g.void else ""
    said = f"  {by_name(g.white, g.black, g.result)}" if g.result and not g.void else ""
    return f"{g.pairing}{board}: {who(g.white)} v {who(g.black)}  {g.result or '*'}{said}{void}"


def by_name(white: str, black: str, result: str) -> str:
    """An event game's result said by name, first player first: 'Ann beat Bob'."""
    return {
        "1-0": f"{white} beat {black}",
        "0-1": f"{black} beat {white}",
        "1/2-1/2": f"{white} and {black} drew",
        "+-": f"{white} won by forfeit",
        "-+": f"{black} won by forfeit",
        "--": "both forfeited",
    }.get(result, "")
