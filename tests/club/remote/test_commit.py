"""What binds a remote peer to what it said (club/remote_commit.py), where it is kept (the
journal's ``games.dispute``, version 6) and what the hub makes of it (never a plain result)."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.club.hub.store import ResultStore, parse_result
from companion.club.remote_checks import Bucket, bounded
from companion.club.remote_commit import (
    AGAIN,
    LINKS,
    TAKEN,
    Chain,
    ControlTaken,
    Keys,
    broken_commitments,
    commitment,
    new_seed,
)
from companion.journal.api import Dispute
from companion.journal.rows import SCHEMA_VERSION
from companion.journal.store import SqliteJournal

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)


@settings(max_examples=30, deadline=None)
@given(seeds, st.lists(st.integers(0, 200), min_size=1, max_size=20))
def test_the_peers_keys_pass_in_any_order(seed, order):
    keys = Keys(seed)
    chain = Chain(keys.anchor)
    for n in order:
        assert chain.check(n, keys.key(n))
        assert chain.check(n, keys.key(n))  # heard again: the same key


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(0, 100), st.integers(1, 20), st.binary(min_size=32, max_size=32))
def test_a_key_nobody_sent_yet_cannot_be_made_from_those_sent(seed, sent, ahead, guess):
    """Whoever heard the keys of moves 0..sent (and the anchor) has only hashes of them:
    a later move's key is none of those, nor their hashes, nor a guess."""
    keys = Keys(seed)
    chain = Chain(keys.anchor)
    heard = [keys.key(n) for n in range(sent + 1)]
    for n, key in enumerate(heard):
        assert chain.check(n, key)
    later = sent + ahead
    candidates = {*heard, keys.anchor, guess.hex()}
    for key in candidates:
        assert not chain.check(later, key)
    assert chain.check(later, keys.key(later))


def test_a_key_checks_against_a_later_one_heard_first():
    keys = Keys(new_seed())
    chain = Chain(keys.anchor)
    assert chain.check(9, keys.key(9))
    assert not chain.check(4, keys.key(3))
    assert chain.check(4, keys.key(4))


def test_what_is_not_a_key_is_refused_in_bounded_work():
    chain = Chain(Keys(new_seed()).anchor)
    for n, key in ((LINKS, "00" * 32), (-1, "00" * 32), (0, "xyz"), (0, None), (0, "AB" * 32)):
        assert not chain.check(n, key)


@settings(max_examples=40, deadline=None)
@given(seeds, st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=8), st.data())
def test_a_revealed_name_matches_its_commitment_only_if_it_is_the_one(seed, names, data):
    keys = Keys(seed)
    commits = {n: keys.commit(n, name) for n, name in enumerate(names)}
    salts = [keys.salt(n) for n in range(len(names))]
    assert broken_commitments(commits, salts, names) == []
    k = data.draw(st.integers(0, len(names) - 1))
    other = data.draw(st.text(min_size=1, max_size=30).filter(lambda t: t != names[k]))
    lied = [*names[:k], other, *names[k + 1 :]]
    assert broken_commitments(commits, salts, lied) == [k]
    assert broken_commitments(commits, salts[:k], names) == list(range(k, len(names)))
    assert commitment(salts[k], k, names[k]) == commits[k]
    assert commitment(keys.salt(k + 1), k, names[k]) != commits[k]  # another salt


# what a third party does after each real control message it heard: send one it heard again,
# changed or not, or make up a number and a key
forgeries = st.lists(
    st.tuples(
        st.sampled_from(["again", "changed", "made-up", "old number"]),
        st.integers(0, 40),
    ),
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(seeds, st.lists(forgeries, min_size=1, max_size=12), st.integers(0, 3))
def test_only_the_peers_control_messages_are_taken_each_once(seed, rounds, gap):
    """The peer sends its control messages 0, 1, 2, ... (a few lost on the way: ``gap``);
    after each, a third party that heard them all sends one again (as it was, or changed), or
    one with a number of its own and a made-up key. Every real message that arrives is taken,
    once; nothing else ever is, and the numbers taken only grow."""
    keys = Keys(seed).control
    taken = ControlTaken(Chain(keys.anchor))
    real: dict[int, str] = {}
    accepted: list[tuple[int, str]] = []
    n = 0
    for forged in rounds:
        n += gap if n % 3 == 2 else 0  # some of the peer's messages never arrive
        real[n] = f"real {n}"
        assert taken.take(n, keys.key(n), real[n]) == TAKEN
        accepted.append((n, real[n]))
        for how, k in forged:
            heard = sorted(real)[k % len(real)]
            if how == "again":
                verdict = taken.take(heard, keys.key(heard), real[heard])
                assert verdict != TAKEN
                if heard == n:
                    assert verdict == AGAIN  # the broker's second delivery: said nothing of
            elif how == "changed":
                verdict = taken.take(heard, keys.key(heard), f"forged {k}")
            elif how == "made-up":
                verdict = taken.take(n + 1 + k, "ab" * 32, f"forged {k}")
            else:
                verdict = taken.take(heard, "cd" * 32, f"forged {k}")
            if verdict == TAKEN:
                accepted.append((-1, "forged"))
        n += 1
    assert all(real.get(k) == digest for k, digest in accepted)  # nothing forged was taken
    numbers = [k for k, _ in accepted]
    assert numbers == sorted(set(numbers)) == sorted(real)


def test_control_numbers_taken_survive_a_restart_and_bound_the_work():
    """Taken up to 5 before a restart (the caller keeps ``last``): 5 and below are refused
    however they are signed; a number far past the last one is refused before any hashing."""
    keys = Keys(new_seed()).control
    again = ControlTaken(Chain(keys.anchor), last=5)
    assert again.take(5, keys.key(5), "m5") == "heard"
    assert again.take(3, keys.key(3), "m3") == "heard"
    assert again.take(6, keys.key(6), "m6") == TAKEN
    assert again.take(6 + 513, keys.key(6 + 513), "far") == "far"
    for n in (-1, True, "7", None):
        assert again.take(n, keys.key(7), "x") == "no number"
    assert again.take(7, Keys(new_seed()).control.key(7), "x") == "not keyed"


def test_salts_do_not_give_the_keys_away():
    keys = Keys(new_seed())
    chain = Chain(keys.anchor)
    for n in range(5):
        assert not chain.check(n, keys.salt(n))


def version_5_journal(path) -> None:
    """A journal as version 5 wrote it: no games.dispute column."""
    with SqliteJournal.open(path) as j:
        j.begin("binaryon", {"size": 4}, {})
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE games DROP COLUMN dispute")
    db.execute("PRAGMA user_version = 5")
    db.commit()
    db.close()


def test_a_version_5_journal_gets_its_disputes_and_keeps_a_lie_caught(tmp_path):
    path = tmp_path / "v5.sqlite"
    version_5_journal(path)
    with SqliteJournal.open(path, read_only=True) as j:
        assert j.load(1).dispute is None  # read as it is, nothing written
    with SqliteJournal.open(path) as j:
        assert j.finished_since(1) == []
        j.dispute(1, Dispute("unverified", "t4 never revealed its secret moves"))
        assert j.finished_since(1) == [1]  # its result goes to the hub, marked
        lie = Dispute("disputed", "t4 told answer 3 right", {"fact": "answer 3", "told": "right"})
        j.dispute(1, lie)
        j.dispute(1, Dispute("unverified", "later"))  # a lie caught stays so
        assert j.load(1).dispute == lie
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    db.close()


def test_history_says_disputed_or_unverified_in_one_word(tmp_path, capsys):
    """``history``: a remote game left to the arbiter says ``disputed`` or ``unverified`` in
    its status column, and ``--json`` has ``dispute`` beside the game's own ``status``; a
    version-5 journal (no disputes yet) lists its games with none."""
    path = tmp_path / "v5.sqlite"
    version_5_journal(path)
    assert main(["history", "--json", "--journal", str(path)]) == 0
    assert [g["dispute"] for g in json.loads(capsys.readouterr().out)] == [None]
    with SqliteJournal.open(path) as j:
        j.begin("binaryon", {"size": 4}, {})
        j.begin("binaryon", {"size": 4}, {})
        j.dispute(1, Dispute("unverified", "t4 never revealed its secret moves"))
        j.dispute(2, Dispute("disputed", "t4 told answer 3 right"))
    assert main(["history", "--json", "--journal", str(path)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["dispute"] for g in listed] == ["unverified", "disputed", None]
    assert main(["history", "--journal", str(path)]) == 0
    _header, *rows = capsys.readouterr().out.splitlines()
    words = [row.split()[5] for row in rows]  # id, date, time, game, moves, then the status
    assert words[:2] == ["unverified", "disputed"] and words[2] != "disputed"


def payload(**rest) -> dict:
    return {"board": "t3", "game_uid": "u-1", "game": "latent-binaries", "record": "",
            "players": {"rainbow": "Ann"}, "result": "RAINBOW wins", "winners": ["rainbow"],
            **rest}  # fmt: skip


def test_the_hub_keeps_a_disputed_or_unverified_result_never_a_plain_one(tmp_path):
    store = ResultStore(tmp_path / "club.sqlite")
    evidence = {"fact": "answer 3", "told": "wrong", "true": "right"}
    disputed = payload(status="disputed", why="t4 told answer 3 wrong", evidence=evidence)
    assert store.add(parse_result("t3", "u-1", disputed))
    unverified = payload(game_uid="u-2", status="unverified", why="t4 never revealed")
    assert store.add(parse_result("t3", "u-2", unverified))
    assert store.add(parse_result("t3", "u-3", payload(game_uid="u-3")))
    games = {g["game_uid"]: g for g in store.games()}
    assert games["u-1"]["result"] == "disputed: t4 told answer 3 wrong"
    assert games["u-1"]["winners"] == [] and games["u-1"]["status"] == "disputed"
    assert games["u-1"]["evidence"]["evidence"] == evidence
    assert games["u-1"]["evidence"]["board_result"] == "RAINBOW wins"
    assert games["u-2"]["result"] == "unverified: t4 never revealed"
    assert games["u-2"]["winners"] == [] and games["u-3"]["winners"] == ["rainbow"]
    assert "status" not in games["u-3"]
    store.close()


def test_an_older_hub_store_gets_the_status_columns(tmp_path):
    path = tmp_path / "club.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE results (game_uid TEXT PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT"
        " NULL, players TEXT NOT NULL, result TEXT NOT NULL, winners TEXT NOT NULL, options"
        " TEXT NOT NULL, record TEXT NOT NULL, pairing TEXT, finished REAL, received REAL"
        " NOT NULL)"
    )
    db.execute(
        "INSERT INTO results VALUES ('u-0', 't3', 'binaryon', '{}', 'ON wins', '[\"on\"]',"
        " '{}', '', NULL, NULL, 1.0)"
    )
    db.commit()
    db.close()
    store = ResultStore(path)
    assert store.add(parse_result("t3", "u-1", payload(status="unverified", why="never")))
    games = {g["game_uid"]: g for g in store.games()}
    assert games["u-0"]["result"] == "ON wins" and "status" not in games["u-0"]
    assert games["u-1"]["status"] == "unverified"
    store.close()


def test_evidence_too_long_for_the_hub_is_cut_to_one_line(tmp_path):
    big = payload(status="disputed", why="lie", evidence={"moves": ["x" * 100] * 1000})
    parsed = parse_result("t3", "u-1", big)
    kept = json.loads(parsed["evidence"])
    assert kept["why"] == "lie" and kept["evidence"].startswith("(too long")


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 8),
    st.floats(0.1, 10.0),
    st.lists(st.floats(0.0, 5.0, allow_nan=False), min_size=1, max_size=200),
)
def test_questions_answered_never_outrun_the_bucket(burst, every, gaps):
    """However questions come, no more are answered than the burst and one an ``every``
    since the first; spaced ``every`` apart, every one is."""
    bucket = Bucket(burst, every)
    now, answered = 0.0, 0
    for gap in gaps:
        now += gap
        answered += bucket.take(now)
    assert answered <= burst + (now - gaps[0]) / every + 1e-9
    spaced = Bucket(burst, every)
    assert all(spaced.take(k * every) for k in range(len(gaps)))


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=60),
        st.one_of(st.text(max_size=3000), st.lists(st.text(max_size=50), max_size=400)),
        max_size=40,
    )
)
def test_evidence_kept_is_bounded_and_small_evidence_whole(evidence):
    kept = bounded(evidence, 8000)
    assert len(json.dumps(kept)) <= 8000
    if len(json.dumps(evidence)) <= 8000:
        assert kept == evidence
