"""Hostile input, round 3 (issue 28): no secret by any path (Binøme solo's seed, damaged
secret rows), costs bounded by the request and not by the game (replay pages, the live move
list, tag parsing, option files, record length), and one clear line instead of a traceback
or a misleading message."""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.core.config import Config, ConfigError
from companion.core.terminal_text import for_terminal
from companion.games import get_spec
from companion.games.binome.deck import DeckError, load_deck
from companion.games.binome.options import resolve_game_options
from companion.journal.api import MoveEntry, NullJournal, RecoveryReport, SavedGame
from companion.journal.store import SqliteJournal
from companion.records.check import read_record
from companion.records.format import MAX_RECORD_MOVES, Record, RecordError, format_record
from companion.records.read import parse_record
from companion.referee.session import Session
from companion.service import web_backend
from companion.service.config_check import check_config
from companion.service.web_backend import replay_frames
from companion.views.presenter import MOVES_SHOWN
from tests.paths import REPO
from tests.web_client import api, bearer, run_async
from tests.web_fake import FakeBackend, random_moves

ROOT = REPO


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    return err


def play_solo(
    journal, bots: int = 2, rng_seed: int = 1, finish: bool = False, **options
) -> Session:
    """A Binøme solo game: the human plays at random (never claiming, with ``decline``),
    the referee plays the rest."""
    decline = options.pop("decline", False)
    rules = {"players": "Solo", "solo": bots, **options}
    s = Session("binome", rules, journal, rng=random.Random(rng_seed))
    rng = random.Random(rng_seed)
    moves = 0
    while not s.state.is_over() and (finish or moves < 6):
        legal = s.state.legal_moves("Solo")
        s.submit(legal[-1] if decline and legal[-1].__class__.__name__ == "Decline"
                 else rng.choice(legal), "Solo")  # fmt: skip
        moves += 1
    return s


# --------------------------------------------------------------------------- 8: solo seed


def test_a_solo_seed_is_drawn_at_random_for_each_game():
    seeds = {resolve_game_options({"players": "Ann", "solo": 2})["seed"] for _ in range(4)}
    assert len(seeds) == 4 and 0 not in seeds
    # a seed the players give is theirs to keep (a replay of a known game)
    assert resolve_game_options({"players": "Ann", "solo": 2, "seed": 0})["seed"] == 0


def test_the_solo_seed_stays_out_of_history_records_and_pages_until_the_game_ends(
    tmp_path, capsys, caplog
):
    path = tmp_path / "j.sqlite"
    caplog.set_level(logging.DEBUG)
    with SqliteJournal.open(path) as j:
        s = play_solo(j)
        seed = s.options["seed"]
        assert seed != 0 and not s.state.is_over()
        assert j.load(s.game_id).options["seed"] == seed  # the journal keeps it, to resume
    assert main(["history", "--json", "--journal", str(path)]) == 0
    listed = json.loads(capsys.readouterr().out)[0]
    assert "seed" not in listed["options"] and listed["options"]["solo"] == 2
    assert main(["export", "last", "--journal", str(path)]) == 0
    record = capsys.readouterr().out
    assert "seed=" not in record and str(seed) not in record
    assert str(seed) not in caplog.text
    # the record of the game in progress still reads (a new seed for whoever resumes it)
    assert parse_record(record).options["seed"] != seed


def test_the_solo_seed_is_revealed_once_the_game_ends_and_the_record_replays(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = play_solo(j, finish=True)
        seed = s.options["seed"]
        assert s.state.is_over()
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["options"]["seed"] == seed
    out = tmp_path / "game.txt"
    assert main(["export", "last", "--journal", str(path), "-o", str(out)]) == 0
    rec, state = read_record(out)
    assert rec.options["seed"] == seed and state.is_over()
    assert rec.moves == s.moves


def test_a_record_without_its_seed_is_still_the_same_record_on_a_second_import(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        seed = play_solo(j, finish=True).options["seed"]
    assert main(["export", "last", "--journal", str(path)]) == 0
    text = capsys.readouterr().out.replace(f" seed={seed}", "")
    assert "seed=" not in text
    f = tmp_path / "r.txt"
    f.write_text(text)
    again = tmp_path / "again.sqlite"
    assert main(["import", str(f), "--journal", str(again)]) == 0
    assert main(["import", str(f), "--journal", str(again)]) == 2
    assert "already" in capsys.readouterr().err


def test_a_record_won_by_a_capitalised_name_reads_back(tmp_path, capsys):
    s = Session("binome", {"players": "Ann,Bob"}, NullJournal(), rng=random.Random(5))
    rng = random.Random(5)
    while not s.state.is_over():
        player = sorted(s.state.to_act)[0]
        s.submit(rng.choice(s.state.legal_moves(player)), player)
    winner = s.state.outcome().winner
    assert winner in ("Ann", "Bob")
    rec = Record(game="binome", options=s.options, moves=s.moves, status="finished")
    rec.result = winner
    f = tmp_path / "r.txt"
    f.write_text(format_record(rec))
    again, _ = read_record(f)
    assert again.result == winner


def test_a_new_solo_game_draws_a_new_seed(tmp_path):
    s = play_solo(NullJournal())
    first = s.options["seed"]
    s.new_game()
    assert s.options["seed"] != first and s.options["solo"] == 2


def test_the_daemon_starts_each_solo_game_with_a_fresh_seed(make_daemon):
    d = make_daemon(game="binome", rules={"players": "Solo", "solo": 2})
    first = d.session.options["seed"]
    views = json.dumps([d.web_view(None), d.web_view("Solo")])
    assert str(first) not in views
    d.new_game()
    assert d.session.options["seed"] != first


# --------------------------------------------------------------------------- 9: damaged secret


def test_a_damaged_secret_row_is_described_by_its_public_name(tmp_path, capsys, caplog):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("latent-binaries", journal=j, rng=random.Random(1))
        s.submit(s.state.legal_moves()[0])
        first = s.played[0]
        assert first.public != first.name  # a setup: where the pawn is, not its colours
    damaged = first.name.replace(first.name[-2:], "xx")
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (game_id, kind, ply, move, at, player, public)"
        " VALUES (1, 'move', 1, ?, NULL, 'rainbow', ?)",
        (damaged, first.public),
    )
    db.execute("UPDATE games SET ply = 2")
    db.commit()
    db.close()
    j = SqliteJournal.open(path)
    j.close()
    assert j.recovery is not None and first.public in j.recovery.problem
    assert main(["history", "--json", "--journal", str(path)]) == 0
    note = json.loads(capsys.readouterr().out)[0]["note"]
    for text in (caplog.text, note, j.recovery.problem):
        assert damaged not in text and damaged.split()[-1] not in text
        assert first.name.split()[-1] not in text


def test_a_game_that_cannot_resume_names_its_damaged_secret_move_by_its_public_name():
    s = Session("latent-binaries", journal=NullJournal(), rng=random.Random(1))
    s.submit(s.state.legal_moves()[0])
    first = s.played[0]
    damaged = first.name.rsplit("/", 1)[0] + "/blux"
    saved = SavedGame(1, "latent-binaries", dict(s.options), [damaged], {},
                      [MoveEntry(0, damaged, first.player, first.public)])  # fmt: skip
    with pytest.raises(ValueError) as caught:
        Session.resume(saved, NullJournal())
    assert first.public in str(caught.value) and "blux" not in str(caught.value)


# --------------------------------------------------------------------------- 11: replay pages


def long_binome_game() -> tuple[dict, list[str]]:
    """A whole solo game against six virtual players: well over a page of plies."""
    s = play_solo(NullJournal(), bots=6, finish=True, seed=3, decline=True)
    assert len(s.moves) > MOVES_SHOWN + 30
    return dict(s.options), list(s.moves)


LONG = long_binome_game()


def test_a_replay_page_builds_only_the_views_it_holds(monkeypatch):
    options, names = LONG
    built = []
    real = web_backend.web_view
    monkeypatch.setattr(web_backend, "web_view", lambda *a: built.append(1) or real(*a))
    page = replay_frames(7, "binome", options, names, len(names) - 10, 30)
    assert len(built) == len(page["frames"]) == 11  # plies total-10 .. total
    assert page["plies"] == len(names) and page["from"] == len(names) - 10
    assert page["frames"][-1]["ply"] == len(names) and page["frames"][-1]["over"]
    for frame in page["frames"]:
        assert len(frame["moves"]) <= MOVES_SHOWN
        assert frame["moves_total"] == frame["ply"]
    assert [m["ply"] for m in page["moves"]] == list(range(len(names) - 9, len(names) + 1))
    built.clear()
    page = replay_frames(7, "binome", options, names, 0, 10**6)
    assert len(built) == len(page["frames"]) == web_backend.MAX_FRAMES_PER_PAGE


def test_the_next_page_of_a_replay_starts_from_a_kept_position(monkeypatch):
    from companion.games.binome.engine import BinomeState

    options, names = LONG
    plays = []
    real = BinomeState.play
    monkeypatch.setattr(BinomeState, "play", lambda *a, **k: plays.append(1) or real(*a, **k))
    kept = web_backend.ReplayCheckpoints()
    end = replay_frames(1, "binome", options, names, len(names) - 10, 10, kept)
    assert len(plays) >= len(names) - 1  # the first page replays the game up to it
    plays.clear()
    page = replay_frames(1, "binome", options, names, len(names) - 30, 10, kept)
    assert len(plays) <= web_backend.CHECKPOINT + 10
    plays.clear()
    assert page == replay_frames(1, "binome", options, names, len(names) - 30, 10)
    assert replay_frames(1, "binome", options, names, len(names) - 10, 10, kept) == end
    # another game (or this one changed) starts afresh
    other = replay_frames(1, "binome", options, names[:-1], len(names) - 30, 10, kept)
    assert other == replay_frames(1, "binome", options, names[:-1], len(names) - 30, 10)


def test_a_replay_page_is_small_whatever_the_game_length():
    options, names = LONG
    sizes = [
        len(json.dumps(replay_frames(1, "binome", options, names[:n], n - 20, 20)))
        for n in (MOVES_SHOWN, len(names))
    ]
    # the same number of views with at most MOVES_SHOWN moves each: about the same size
    assert sizes[1] < 1.3 * sizes[0]


# --------------------------------------------------------------------------- 13: tags


@pytest.mark.parametrize(
    "value, read",
    [
        ("v" * 400_000, "v" * 400_000),
        ('\\"' * 200_000, '"' * 200_000),
        ("\\\\\\n" * 130_000, "\\\n" * 130_000),
        ("\ufdd0\ufdd1" + "\\\\\\n" * 130_000, "\ufdd0\ufdd1" + "\\\n" * 130_000),
    ],
)
def test_a_long_tag_value_is_parsed_in_memory_linear_in_its_size(value, read):
    text = f'[Game "binaryon"]\n[Event "{value}"]\n\n1. e5\n'
    tracemalloc.start()
    try:
        rec = parse_record(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert rec.tags["Event"] == read
    # the backtracking regex took ~170 bytes per byte (a 3.9 MB value: 676 MB)
    assert peak < 8 * len(text.encode()), peak


def test_a_record_holding_a_nul_is_refused_with_its_line():
    with pytest.raises(RecordError, match="r:2: a NUL character"):
        parse_record('[Game "binaryon"]\n[Event "a\0"]\n', "r")


def test_tags_with_escapes_and_bad_tags():
    rec = parse_record('[Game "binaryon"]\n[Event "a \\"b\\" c\\\\ d\\n"]\n')
    assert rec.tags["Event"] == 'a "b" c\\ d\n'
    for bad in ('[Event "a"] x', '[Event "a]', '[Event"a"]', '[9 "a"]', '[Event "a\\"]'):
        with pytest.raises(RecordError, match="bad tag"):
            parse_record(f'[Game "binaryon"]\n{bad}\n')


# --------------------------------------------------------------------------- 14: option files


def test_a_deck_file_must_be_a_regular_file_of_bounded_size(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n")
    with pytest.raises(DeckError, match="larger than"):
        load_deck(big)
    with pytest.raises(DeckError, match="not a regular file"):
        load_deck("/dev/null")
    with pytest.raises(ValueError, match="deck: .*not a regular file"):
        resolve_game_options({"deck": "/dev/zero"})


def test_a_deck_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "deck.fifo"
    os.mkfifo(fifo)
    errors: list[Exception] = []

    def read() -> None:
        try:
            load_deck(fifo)
        except DeckError as e:
            errors.append(e)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # unblock the reader before failing
        with open(fifo, "w"):
            pass
    assert not reader.is_alive() and "not a regular file" in str(errors[0])


def test_a_deck_of_dev_zero_ends_with_one_line_in_bounded_memory(tmp_path):
    """In a child with 1 GB of address space: reading /dev/zero whole would run out."""
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from companion.cli.main import main\n"
        "raise SystemExit(main(['sim', '--journal', 'none', '--game', 'binome', "
        "'--rule', 'deck=/dev/zero']))\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert child.returncode == 2 and "Traceback" not in child.stderr
    assert "not a regular file" in child.stderr.strip().splitlines()[-1]


# --------------------------------------------------------------------------- 15: long games


def test_a_record_with_too_many_moves_is_refused_with_one_line(tmp_path, capsys):
    text = '[Game "binaryon"]\n\n' + " ".join(["e5"] * (MAX_RECORD_MOVES + 1)) + "\n"
    with pytest.raises(RecordError, match=f"more than {MAX_RECORD_MOVES:,} moves"):
        parse_record(text)
    f = tmp_path / "long.txt"
    f.write_text(text)
    assert main(["import", str(f), "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert "moves" in one_line_error(capsys)
    assert not (tmp_path / "j.sqlite").exists()


def test_a_repeated_move_number_is_refused_where_it_stands():
    text = '[Game "binaryon"]\n\n' + " ".join(["1."] * 1000) + "\n"
    with pytest.raises(RecordError, match=r":3:4: move number 1\. repeated"):
        parse_record(text)


@pytest.mark.parametrize("layout", ["one line", "a line each"])
def test_a_record_with_too_many_words_is_refused_while_it_is_read(layout):
    """1.3 million words cost what the first 41,000 do: memory bounded by the limit."""
    words = ["1."] * 1_300_000
    text = '[Game "binaryon"]\n\n' + (" " if layout == "one line" else "\n").join(words)
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="more than 41,000 words after the tags"):
            parse_record(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, peak  # every word kept first: over 200 MB


def test_the_live_view_lists_recent_moves_only_with_their_count(make_daemon, tmp_path):
    options, names = LONG
    kept = names[: MOVES_SHOWN + 30]
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    game_id = journal.begin("binome", options, {})
    journal.commit_turn(game_id, 0, [MoveEntry(i, n) for i, n in enumerate(kept)])
    d = make_daemon(game="binome", rules={"players": "Solo", "solo": 6}, journal=journal)
    assert d.session.game_id == game_id and d.session.moves[: len(kept)] == kept
    total = len(d.session.played)
    for viewer in (None, "Solo"):
        view = d.web_view(viewer)
        assert view["moves_total"] == total and len(view["moves"]) == MOVES_SHOWN
        assert [m["ply"] for m in view["moves"]] == list(range(total - MOVES_SHOWN + 1, total + 1))


# --------------------------------------------------------------------------- 17: tracebacks


def test_history_with_a_huge_limit_lists_every_game(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        play_solo(j)
    assert main(["history", "--limit", "9" * 20, "--journal", str(path)]) == 0
    assert "binome" in capsys.readouterr().out


def damaged_copy(tmp_path: Path, name: str, sql: str) -> Path:
    path = tmp_path / f"{name}.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("binaryon", journal=j, players={"on": "Ana"})
        for _ in range(4):
            s.submit(s.state.legal_moves()[0])
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    return path


@pytest.mark.parametrize(
    "name, sql",
    [
        ("options", "UPDATE games SET options = '[1, 2]'"),
        ("players", "UPDATE games SET players = '[\"Ana\"]'"),
        ("player", "UPDATE games SET players = '{\"on\": 5}'"),
        ("game", "UPDATE games SET game = 'chess'"),
        ("move", "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', 4, x'fffe')"),
        ("ply", "INSERT INTO events (game_id, kind, ply, move) VALUES (1, 'move', 'a', 'e5')"),
    ],
)
def test_export_and_history_of_a_damaged_row_say_one_line(tmp_path, capsys, name, sql):
    path = damaged_copy(tmp_path, name, sql)
    code = main(["export", "1", "--journal", str(path)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    if code != 0:
        assert out.err.count("\n") == 1 and "game 1" in out.err
    for args in (["history"], ["history", "--json"]):
        assert main([*args, "--journal", str(path)]) == 0
        assert "Traceback" not in capsys.readouterr().err


# --------------------------------------------------------------------------- 18: names


def test_history_escapes_terminal_control_characters_in_names(tmp_path, capsys):
    evil = "Ana\x1b]0;owned\x07\x1b[2J\u202eX"
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("binaryon", journal=j, players={"on": evil})
        s.submit(s.state.legal_moves()[0])
    assert main(["history", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "Ana\\x1b]0;owned\\x07\\x1b[2J\\u202eX" in out
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["players"]["on"] == evil


def test_replay_escapes_a_name_from_the_record(tmp_path, capsys):
    rec = Record(game="binaryon", options=get_spec("binaryon").resolve({}), moves=["e5"])
    rec.players = {"on": "Ana\x1b[2J\x1b]0;x\x07"}
    f = tmp_path / "r.txt"
    f.write_text(format_record(rec))
    assert main(["replay", str(f), "--delay", "0", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Ana\\x1b[2J" in out


def test_terminal_text_keeps_printable_text_as_it_is():
    for text in ("Zoë", "李", "👩\u200d👩\u200d👧", "a b"):
        assert for_terminal(text) == text
    assert for_terminal("a\nb\tc\x7f\x9b") == "a\\x0ab\\x09c\\x7f\\x9b"


# --------------------------------------------------------------------------- 19: messages


def test_a_recovery_report_says_which_copies_were_kept(tmp_path):
    main_copy, wal_copy = tmp_path / "j.corrupt-1", tmp_path / "j.corrupt-1-wal"
    line = RecoveryReport(tmp_path / "j", "bad page", []).line()
    assert "no copy of the damaged file could be kept" in line and "?" not in line
    line = RecoveryReport(tmp_path / "j", "bad page", [wal_copy]).line()
    assert f"only of its WAL: {wal_copy}" in line and "(and its -wal)" not in line
    line = RecoveryReport(tmp_path / "j", "bad page", [main_copy, wal_copy]).line()
    assert f"kept as {main_copy} (and its -wal)" in line


def test_a_move_number_in_the_middle_of_a_move_says_so():
    with pytest.raises(RecordError, match=r"move number 5\. in the middle of move 5"):
        parse_record('[Game "binaryon"]\n\n1. a b 2. c d 3. e f 4. g h 5. i 5. j\n')
    with pytest.raises(RecordError, match=r"move number 7\. out of place, expected 5\."):
        parse_record('[Game "binaryon"]\n\n1. a b 2. c d 3. e f 4. g h 7. i\n')


@pytest.mark.parametrize(
    "game, overrides, said",
    [
        ({"engine_side": "nobody"}, {}, "opponent_side 'nobody': not a player of binaryon"),
        ({"opponent_side": "nobody"}, {}, "opponent_side 'nobody': not a player of binaryon"),
        ({"opponent": "engine", "name": "binome"}, {}, "no engine plays binome"),
    ],
)
def test_an_engine_for_a_side_or_game_it_cannot_play_is_refused(game, overrides, said):
    with pytest.raises(ConfigError, match=said):
        check_config(Config.default().with_overrides(game=game, **overrides))


@pytest.mark.parametrize("flag", ["--engine-side", "--opponent-side"])
def test_sim_refuses_an_engine_side_that_is_no_player(capsys, flag):
    assert main(["sim", "--journal", "none", flag, "nobody"]) == 2
    assert "nobody" in one_line_error(capsys)


def test_history_of_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "journal.fifo"
    os.mkfifo(fifo)
    done: list[int] = []
    runner = threading.Thread(
        target=lambda: done.append(main(["history", "--journal", str(fifo)])), daemon=True
    )
    runner.start()
    runner.join(30)
    if runner.is_alive():
        with open(fifo, "wb"):
            pass
        runner.join(5)
    assert done == [2]
    assert "not a regular file" in one_line_error(capsys)


def test_a_tag_written_by_format_record_reads_back_whatever_its_value():
    value = 'x "quoted" \\ back\nline\ttab ]['
    rec = Record(game="binaryon", options=get_spec("binaryon").resolve({}), moves=["e5"])
    rec.tags["Event"] = value
    again = parse_record(format_record(rec))
    assert again.tags["Event"] == value and again.moves == ["e5"]


# --------------------------------------------------------------------------- 17: the web


SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def raw_request(client, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are (no client library would send a header that is not UTF-8)."""
    import asyncio

    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(head)
    await writer.drain()
    data = await reader.read()
    writer.close()
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@run_async
async def test_a_deeply_nested_body_is_bad_json_with_the_security_headers():
    async with api() as (client, backend):
        body = "[" * 4001
        resp = await client.post("/api/move", data=body, headers=bearer(backend.tokens()["on"]))
        assert resp.status == 400 and (await resp.json())["code"] == "bad-json"
        assert all(h in resp.headers for h in SECURITY_HEADERS)


@run_async
async def test_a_token_that_is_not_utf8_is_refused_without_a_traceback(caplog):
    async with api() as (client, _):
        head = (
            b"GET /api/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \xff\xfe\r\n"
            b"Connection: close\r\n\r\n"
        )
        status, headers, body = await raw_request(client, head)
        assert status == 403 and json.loads(body)["code"] == "bad-token"
        assert all(h in headers for h in SECURITY_HEADERS)
    assert "Traceback" not in caplog.text


@run_async
async def test_a_failure_inside_a_handler_is_json_with_headers_and_one_log_line(caplog):
    async with api() as (client, backend):
        backend.record = lambda *args: {"not json": object()}
        resp = await client.get(f"/api/game/{backend.game_id}")
        assert resp.status == 500 and (await resp.json())["code"] == "internal-error"
        assert all(h in resp.headers for h in SECURITY_HEADERS)
        resp = await client.post("/")  # no POST on a page: JSON too, with the headers
        assert resp.status == 405 and (await resp.json())["ok"] is False
        assert all(h in resp.headers for h in SECURITY_HEADERS)
    failures = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failures) == 1 and failures[0].exc_info is None
    assert "Traceback" not in caplog.text


@run_async
async def test_a_replay_is_asked_for_a_page_at_a_time():
    backend = FakeBackend()
    backend.new_game(random_moves(count=12, seed=3))
    async with api(backend) as (client, _):
        page = await (await client.get(f"/api/game/{backend.game_id}?from=4&count=3")).json()
        assert page["from"] == 4 and page["plies"] == 12
        assert [f["ply"] for f in page["frames"]] == [4, 5, 6]
        for query in ("count=0", "count=101", "from=-1", "from=x", "count=1e3"):
            resp = await client.get(f"/api/game/{backend.game_id}?{query}")
            assert resp.status == 400 and (await resp.json())["code"] == "bad-request", query
