"""The game protocol's contract, checked over every registered game and three stub games of
the shapes the protocol must host (no board and 5 players; hidden information; a board
smaller than the physical one, not square): random games to the end, notation round trips,
replay from move names, views of the right shape, no secret on the table or on another
player's page before the game reveals it; each game's facets (the command line's positions,
the clock's rules, remote play's ``spec.remote()``) with their defaults, and for a game with
secrets two masked boards playing whole games each with its own secrets."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from companion.games import game_names, get_spec
from companion.games.base import ClockRules, GameSpec, GameState, Outcome
from companion.games.positions import Positions
from companion.games.remote_api import Remote
from companion.timing.clock import TimeControl
from tests.stub_games import STUBS, stubs_registered

GAMES = game_names() + list(STUBS)


@pytest.fixture(autouse=True, scope="module")
def stubs():
    with stubs_registered():
        yield


def step(state: GameState, rng: random.Random):
    """One move as the referee or a player would make it: (move, player)."""
    forced = state.forced_move()
    if forced is not None:
        return forced, None
    chance = state.chance()
    if chance is not None:
        return state.parse_move(rng.choice(chance.outcomes)), None
    moves = list(state.legal_moves())
    assert moves, f"{state.game}: not over, no forced move, no chance step, no legal move"
    move = rng.choice(moves)
    return move, state.actor(move)


def playout(spec: GameSpec, seed: int, limit: int = 3000):
    """Yield (state, move, player) along one random game; the last state is over."""
    rng = random.Random(seed)
    state = spec.new(**spec.resolve({}))
    for _ in range(limit):
        if state.is_over():
            yield state, None, None
            return
        move, player = step(state, rng)
        yield state, move, player
        state = state.play(move, player)
    pytest.fail(f"{spec.name}: no end after {limit} moves")


def view_text(spec: GameSpec, state: GameState, viewer: str | None) -> str:
    return json.dumps(asdict(spec.view(state, viewer)))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_contract(name, seed):
    spec = get_spec(name)
    names: list[str] = []
    last = None
    for state, move, player in playout(spec, seed):
        players = tuple(state.players)
        assert 1 <= len(players) <= 7 and len(set(players)) == len(players)
        assert state.to_act <= set(players)
        assert state.turn is None or state.to_act == {state.turn}
        # every seat plays one player and every player is played by one seat
        seating = state.seating()
        assert sorted(seating) == sorted(players) == sorted(seating.values())
        assert all(state.seat_of(state.player_of(p)) == p for p in players)
        assert state.page_of(players[0]) in players
        view = spec.view(state)
        assert len(view.panel.rows) == len(players)
        assert view.private == ()  # the table never gets private lines
        layout = spec.layout(spec.resolve({}))
        if layout is not None:
            assert len(view.cells) == layout.cells and len(view.leds) == layout.cells
            assert layout.fits(layout.natural_board)
        if move is None:
            last = state
            break
        assert state.check(move, player) is None
        name_ = move.name
        assert state.parse_move(name_) == move, name_
        assert isinstance(state.public_name(move), str)
        names.append(name_)
    assert last is not None and last.is_over()
    outcome = last.outcome()
    assert isinstance(outcome, Outcome) and outcome.summary
    assert set(outcome.winners) <= set(last.players)
    assert last.revealed()
    # replaying the move names rebuilds the game exactly
    again = spec.new(**spec.resolve({}))
    for n in names:
        again = again.play(again.parse_move(n))
    assert again.ply == last.ply and again.is_over()
    assert spec.view(again) == spec.view(last)


@pytest.mark.parametrize("name", GAMES)
def test_the_remote_facet_says_what_the_game_hides(name):
    """Every game's remote facet (``spec.remote()``, defaults in ``Remote``): a game that
    hides something (a move with a public name of its own, a chance step, a secret option)
    says so (``hidden``), one that hides nothing does not; a masked facet masks a new game
    for each seat (a state that knows that seat alone), any other leaves every state as it
    is, with nothing disclosed and nobody waited for."""
    spec = get_spec(name)
    remote = spec.remote()
    assert isinstance(remote, Remote)
    assert not remote.masked or remote.hidden
    hides = bool(spec.secret_options)
    for seed in range(2):
        for state, move, _player in playout(spec, 200 + seed):
            if move is None:
                break
            hides = hides or state.chance() is not None or state.public_name(move) != move.name
            assert remote.on_board(move) in (True, False)
    assert remote.hidden == hides, f"{name}: hides {hides}, its remote facet says {remote.hidden}"
    new = spec.new(**spec.resolve({}))
    for seat in new.players:
        masked = remote.mask(new, seat)
        if remote.masked:
            assert remote.masked_for(masked) == seat and masked.players == new.players
            assert remote.waiting(masked) <= set(new.players)
            assert isinstance(remote.disclosed(new, seat), dict)
        else:
            assert masked is new and remote.masked_for(new) is None
            assert remote.disclosed(new, seat) == {} and remote.waiting(new) == frozenset()
            assert remote.learn(new, seat, {"any": 1}) is new


MASKED = [g for g in game_names() if get_spec(g).remote().masked]


@pytest.mark.parametrize("name", MASKED)
@pytest.mark.parametrize("seed", range(3))
def test_two_masked_boards_play_the_whole_game(name, seed):
    """The masked-play contract, through the remote facet: a random game played on two
    masked boards (each seat's move by its full name on its own board and by its public name
    on the other, a chance step by its name on both; after each move each board learns what
    the other discloses, until nothing changes) is accepted move by move on both and ends on
    both when the full game ends. A fact, once disclosed, keeps its value."""
    spec = get_spec(name)
    remote = spec.remote()
    options = spec.resolve({"players": "Ann,Bob"} if name == "binome" else {})
    full = spec.new(**options)
    seats = tuple(full.players)
    boards = {seat: remote.mask(full, seat) for seat in seats}
    heard: dict[str, dict] = {seat: {} for seat in seats}
    rng = random.Random(300 + seed)
    for _ in range(3000):
        if full.is_over():
            break
        move, player = step(full, rng)
        actor = full.actor(move) if player is not None else None
        for seat, board in boards.items():
            said = move.name if actor in (None, seat) else full.public_name(move)
            mine = board.parse_move(said)
            assert board.check(mine, player) is None, (seat, said, board.check(mine, player))
            boards[seat] = board.play(mine, player)
        full = full.play(move, player)
        changed = True
        while changed:
            changed = False
            for seat in seats:
                for other in seats:
                    if other == seat:
                        continue
                    facts = remote.disclosed(boards[other], other)
                    for key, value in facts.items():
                        assert heard[seat].setdefault(key, value) == value, (key, value)
                    learned = remote.learn(boards[seat], other, facts)
                    changed = changed or learned != boards[seat]
                    boards[seat] = learned
    assert full.is_over()
    assert all(board.is_over() for board in boards.values())
    assert all(remote.masked_for(boards[seat]) == seat for seat in seats)


@pytest.mark.parametrize("name", GAMES)
def test_no_secret_on_the_table_or_another_players_page(name):
    spec = get_spec(name)
    secrets_seen = 0
    for seed in range(3):
        for state, move, _player in playout(spec, 100 + seed):
            if move is None or state.revealed():
                continue
            public = view_text(spec, state, None)
            for p in state.players:
                own = set(spec.view(state, p).private)
                for line in own:
                    assert line not in public, (p, line)
                    for q in state.players:
                        if q != p and line not in set(spec.view(state, q).private):
                            assert line not in view_text(spec, state, q), (p, q, line)
            if state.public_name(move) != move.name:
                secrets_seen += 1
    if name in ("party", "hidden"):
        assert secrets_seen > 0  # the stubs do hold secrets: the check above had work to do


@pytest.mark.parametrize("name", GAMES)
def test_interpreters_read_every_cell(name):
    spec = get_spec(name)
    options = spec.resolve({})
    layout = spec.layout(options)
    state = spec.new(**options)
    if layout is None:
        assert spec.sensor_kinds == ()
        return
    for kind in spec.sensor_kinds:
        interpreter = spec.interpreter(kind)
        expected = interpreter.expected(state)
        assert len(expected) == layout.cells
        if kind != "switch":  # a board that matches the game means nothing new
            assert interpreter.board(state, expected) is None


def test_the_stub_shapes_are_what_they_say():
    party = get_spec("party")
    state = party.new(**party.resolve({}))
    assert len(state.players) == 5 and party.layout({}) is None and state.chance() is not None
    small = get_spec("small")
    layout = small.layout({})
    assert (layout.files, layout.ranks) == (4, 3) and layout.to_board(8)[:4] == [0, 1, 2, 3]
    hidden = get_spec("hidden")
    s = hidden.new()
    assert s.to_act == {"left", "right"}  # both hide at once


# ----------------------------------------------------------------- the facets
# Each game's facets (``spec.engine()``'s adapter is checked by the engines' tests): the
# command line's positions and the clock's rules, defaults included, over a random game.


def mid_game(spec: GameSpec, seed: int = 7) -> list[GameState]:
    """The states of one random game, the start first and the end last."""
    return [state for state, _, _ in playout(spec, seed)]


@pytest.mark.parametrize("name", GAMES)
def test_the_positions_facet_keeps_the_contract(name):
    spec = get_spec(name)
    positions = spec.positions()
    assert isinstance(positions, Positions) and positions.spec is spec
    options = spec.resolve({})
    assert set(positions.movers) <= set(spec.players(options))
    states = mid_game(spec)
    for state in states[:: max(1, len(states) // 12)] + [states[-1]]:
        listed = positions.legal_record(state)["moves"]
        assert len(set(listed)) == len(listed)
        for text in listed:  # each a legal move's name
            move = state.parse_move(text)
            assert move.name == text and state.check(move, state.actor(move)) is None
        if state.is_over():
            assert listed == []
    end = states[-1]
    scored, words = positions.score_record(end), positions.describe_record(end)
    assert (scored is None) == (words is None)
    if scored is not None:
        assert json.loads(json.dumps(scored)) == scored and words.strip()
    # a text that is no position: one ValueError (a game that reads none: None)
    movers = positions.movers or ("?",)
    for bad in ("", "no position\n", "x x\nx\n"):
        calls = [
            (positions.score, (bad, {})),
            (positions.describe_score, (bad, {})),
            *((positions.legal, (bad, m, {})) for m in movers),
            *((positions.state, (bad, m)) for m in movers),
        ]
        for call, args in calls:
            try:
                assert call(*args) is None
            except ValueError as e:
                assert str(e) and "\n" not in str(e).strip()
    assert positions.describe_legal({"moves": []}, "left").strip()


@pytest.mark.parametrize("name", GAMES)
def test_the_clock_rules_facet_keeps_the_contract(name):
    spec = get_spec(name)
    rules = spec.clock_rules()
    assert isinstance(rules, ClockRules) and rules.spec is spec
    if rules.default:
        TimeControl.parse(rules.default)  # a control the clock reads
    options = spec.resolve({})
    assert rules.step_seconds(options) >= 0
    states = [s for s in mid_game(spec) if not s.is_over()]
    for state in states[:: max(1, len(states) // 8)]:
        for flagged in state.players:
            outcome = rules.on_time(state, flagged)
            assert isinstance(outcome, Outcome) and outcome.summary and outcome.reason
            assert set(outcome.winners) <= set(state.players) - {flagged}
            assert outcome.detail["on_time"] == flagged
            late = rules.timed_out(state, flagged)
            assert late is None or state.check(late, flagged) is None


@pytest.mark.parametrize("name", MASKED)
@pytest.mark.parametrize("seed", range(2))
def test_masked_play_keeps_the_contract(name, seed):
    """A remote game with secrets at the state level: the board of the first seat holds the
    game masked, hears the other seats' moves by their public names and their facts as the
    full game discloses them, and ends as the full game does; the clock's rules give it the
    same result on time at every step (nothing in them needs a secret)."""
    spec = get_spec(name)
    rules, remote = spec.clock_rules(), spec.remote()
    seat = spec.new(**spec.resolve({})).players[0]
    masked = None
    for state, move, player in playout(spec, 200 + seed):
        if masked is None:
            masked = remote.mask(state, seat)
            assert remote.masked_for(masked) == seat
        for other in state.players:
            if other != seat:
                masked = remote.learn(masked, other, remote.disclosed(state, other))
        assert not remote.waiting(masked)
        if move is None:
            break
        if not state.is_over() and state.to_act:
            flagged = sorted(state.to_act)[0]
            here = rules.on_time(masked, flagged)
            assert here.winners == rules.on_time(state, flagged).winners
        mine = player in (seat, None)
        name_ = move.name if mine else state.public_name(move)
        masked = masked.play(masked.parse_move(name_), player)
    assert masked is not None and masked.is_over()
    assert masked.outcome().winners == state.outcome().winners
