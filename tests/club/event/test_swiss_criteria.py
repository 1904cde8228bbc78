"""The Dutch system's absolute criteria (C.04.3 C.1-C.3) as properties of ``pair_swiss``
over random events with byes and forfeits: everyone paired once a round, no pair twice, at
most one pairing-allocated bye per player and never to a player who won a round by forfeit,
a bye only when the players are odd, and the colour limits (a colour difference within 2,
never three times one colour running) except where C.04.3 A.7 lets a topscorer break them in
the final round."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.club.event.swiss import BLACK, WHITE, History, PairingError, pair_swiss


def _colour_ok(colours: list[str]) -> bool:
    text = "".join("w" if c == WHITE else "b" for c in colours)
    return abs(text.count("w") - text.count("b")) <= 2 and "www" not in text and "bbb" not in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(min_value=3, max_value=14), data=st.data())
def test_every_round_keeps_the_absolute_criteria(n, data):
    rounds = data.draw(st.integers(min_value=2, max_value=min(7, n - 1)), label="rounds")
    bye_points = data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="bye")
    players = [History(rating=2600 - 50 * i) for i in range(n)]
    met: set[tuple[int, int]] = set()
    for number in range(1, rounds + 1):
        try:
            pairs = pair_swiss(players, met, number, rounds)
        except PairingError as e:  # one line for the arbiter; nothing else to check
            assert "\n" not in str(e)
            return
        seen = sorted(x for pair in pairs for x in pair if x is not None)
        assert seen == list(range(n)), "everyone once"
        byes = [w for w, b in pairs if b is None]
        assert len(byes) == n % 2
        for w in byes:
            assert players[w].byes == 0, "a second bye"
            assert players[w].forfeit_wins == 0, "a bye after a point without playing"
        top = {i for i, p in enumerate(players) if p.score > (number - 1) / 2}
        final = number == rounds
        before = [p.score for p in players]
        for w, b in pairs:
            if b is None:
                players[w].score += bye_points
                players[w].byes += 1
                players[w].floats.append("down" if bye_points else "none")
                continue
            assert (min(w, b), max(w, b)) not in met, "a pair twice"
            excused = final and (w in top or b in top)
            if not excused:
                assert _colour_ok([*players[w].colours, WHITE]), (number, w, players[w])
                assert _colour_ok([*players[b].colours, BLACK]), (number, b, players[b])
            outcome = data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+"]))
            if outcome in ("+-", "-+"):
                winner, loser = (w, b) if outcome == "+-" else (b, w)
                players[winner].score += 1
                players[winner].forfeit_wins += 1
                players[winner].floats.append("down")
                players[loser].floats.append("none")
                continue
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[outcome]
            players[w].score += points
            players[b].score += 1 - points
            players[w].colours.append(WHITE)
            players[b].colours.append(BLACK)
            met.add((min(w, b), max(w, b)))
            for x, y in ((w, b), (b, w)):
                players[x].floats.append(
                    "none" if before[x] == before[y] else "down" if before[x] > before[y] else "up"
                )


# The engine itself (``dutch.pair_round``) on random histories, checked against every pairing
# of the players (brute force, up to 9 of them): it pairs whenever the absolute criteria allow
# a pairing, refuses only when none does, keeps C.1-C.3, and gives the bye to the lowest
# score any valid pairing gives it to (C.2, C.4: the bye as low as the rest can be paired).


def _absolute(colours: str) -> str | None:
    """The colour a player must have next (A.6: difference beyond 1, or two alike running)."""
    diff = colours.count("w") - colours.count("b")
    if diff > 1:
        return "b"
    if diff < -1:
        return "w"
    return {"ww": "b", "bb": "w"}.get(colours[-2:])


def _pairings(players: list[int]):
    """Every way to pair ``players`` (one left alone when odd)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for k, alone in enumerate(players):
            for rest in _pairings(players[:k] + players[k + 1 :]):
                yield [(alone, None), *rest]
        return
    first, others = players[0], players[1:]
    for k, other in enumerate(others):
        for rest in _pairings(others[:k] + others[k + 1 :]):
            yield [(first, other), *rest]


@st.composite
def _histories(draw):
    from companion.club.event.dutch import Entrant

    n = draw(st.integers(min_value=2, max_value=9))
    played = draw(st.integers(min_value=0, max_value=5))
    total = draw(st.integers(min_value=played + 1, max_value=played + 3))
    entrants = []
    for _ in range(n):
        colours = draw(st.text("wb", max_size=played))
        score2 = draw(st.integers(min_value=0, max_value=2 * played))
        floats = tuple(draw(st.lists(st.sampled_from(["up", "down", "none"]), max_size=played)))
        entrants.append(Entrant(score2, colours, floats, draw(st.booleans())))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))) if pairs else set()
    return entrants, met, played, total


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_histories())
def test_the_engine_pairs_when_the_absolute_criteria_allow_and_only_then(case):
    from companion.club.event.dutch import Unpairable, pair_round

    entrants, met, played, total = case
    n = len(entrants)

    def allowed(a: int, b: int) -> bool:
        if (min(a, b), max(a, b)) in met:
            return False
        ca, cb = _absolute(entrants[a].colours), _absolute(entrants[b].colours)
        top = played >= total - 1 and max(entrants[a].score2, entrants[b].score2) > played
        return ca is None or ca != cb or top

    def valid(pairing) -> bool:
        return all(entrants[a].bye_eligible if b is None else allowed(a, b) for a, b in pairing)

    valid_ones = [p for p in _pairings(list(range(n))) if valid(p)]
    try:
        got = pair_round(entrants, met, played, total)
    except Unpairable:
        assert not valid_ones, "refused, yet a pairing keeps the absolute criteria"
        return
    assert valid_ones, "paired, yet no pairing keeps the absolute criteria"
    assert sorted(x for pair in got for x in pair if x is not None) == list(range(n))
    assert valid(got), got
    byes = [a for a, b in got if b is None]
    assert len(byes) == n % 2
    if byes:
        lowest = min(entrants[a].score2 for p in valid_ones for a, b in p if b is None)
        assert entrants[byes[0]].score2 == lowest


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=0, max_value=9),
    data=st.data(),
)
def test_the_pairability_check_agrees_with_every_pairing(n, data):
    """``matching.complete`` (greedy, mended, a matching last) says a group can be paired,
    one player left alone who may be when they are odd, exactly when some pairing does."""
    from companion.club.event.matching import complete

    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    allowed = set(data.draw(st.lists(st.sampled_from(pairs), unique=True))) if pairs else set()
    alone = set(data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=n)))

    def ok(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in allowed

    exists = any(
        all(a in alone if b is None else ok(a, b) for a, b in p) for p in _pairings(list(range(n)))
    )
    assert complete(list(range(n)), ok, lambda v: v in alone) == exists
