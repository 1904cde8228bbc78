"""The Binøme game state: part 1, part 2, the end, variants, notation, refusals."""

from __future__ import annotations

import pytest

from companion.games import get_spec
from companion.games.base import IllegalMove
from companion.games.binome.engine import CLAIM, DRAW, OVER, ROLL, WRITE
from companion.games.binome.moves import Claim, Decline, Draw, Roll, Write, cell_name, parse_cell

new_game = get_spec("binome").new

FIVE = "Eustache,Algernon,Balthazar,Cornelia,Dorothy"
# Every sheet holds the same sixteen digits (each roll goes to every sheet), paired differently.
EXAMPLE_SHEETS = {
    "Eustache": ["22", "88", "44", "13", "56", "79", "00", "13"],
    "Algernon": ["88", "22", "44", "31", "65", "97", "01", "03"],
    "Balthazar": ["88", "24", "24", "13", "56", "79", "01", "03"],
    "Cornelia": ["44", "28", "28", "13", "56", "79", "01", "03"],
    "Dorothy": ["88", "42", "42", "15", "36", "79", "01", "03"],
}


def write_sheets(state, sheets: dict[str, list[str]], names: list[str] | None = None):
    """Play part 1 so that every player ends with ``sheets[player]``; returns the state.
    Move names are appended to ``names`` when given."""
    digits = sorted("".join(next(iter(sheets.values()))))
    for sheet in sheets.values():
        assert sorted("".join(sheet)) == digits, "every sheet needs the same digits"
    targets = {p: "".join(s) for p, s in sheets.items()}

    def play(move):
        nonlocal state
        if names is not None:
            names.append(move.name)
        state = state.play(move)

    for d in digits:
        play(Roll(int(d)))
        for p in state.players:
            sheet = state.sheet(p)
            cell = next(c for c, t in enumerate(targets[p]) if t == d and sheet[c] is None)
            play(Write(cell, p))
    return state


def example_game(**options):
    state = new_game(players=FIVE, chair="Eustache", **options)
    return write_sheets(state, EXAMPLE_SHEETS)


def test_a_new_game_waits_for_the_first_roll():
    s = new_game()
    assert s.players == ("p1", "p2")
    assert s.phase == ROLL and s.to_act == frozenset() and s.turn is None
    chance = s.chance()
    assert chance is not None and chance.kind == "d10"
    assert chance.outcomes == tuple(f"roll {d}" for d in range(10))
    assert [s.parse_move(o) for o in chance.outcomes] == [Roll(d) for d in range(10)]
    assert s.legal_moves() == [s.parse_move(o) for o in chance.outcomes]
    assert s.legal_moves("p1") == []
    assert not s.is_over() and s.outcome() is None


def test_everyone_writes_each_roll_at_once():
    s = new_game(players="Ann,Bob,Cy").play(Roll(7))
    assert s.phase == WRITE and s.digit == 7
    assert s.to_act == {"Ann", "Bob", "Cy"} and s.turn is None
    assert len(s.legal_moves("Bob")) == 16
    s = s.play(Write(parse_cell("3a"), "Bob"))
    assert s.to_act == {"Ann", "Cy"}
    assert s.numbers("Bob")[2] == "7?"
    refusal = s.check(Write(0, "Bob"))
    assert refusal is not None and refusal.code == "already-wrote"
    s = s.play(Write(0), player="Ann").play(Write(15, "Cy"))
    assert s.to_act == frozenset() and s.phase == ROLL
    s = s.play(Roll(2))
    refusal = s.check(Write(parse_cell("3a"), "Bob"))
    assert refusal is not None and refusal.code == "cell-taken"
    assert refusal.reason == "3a: already written"
    assert s.play(Write(parse_cell("3b"), "Bob")).numbers("Bob")[2] == "72"


def test_part_one_is_sixteen_rolls_then_the_chair_draws():
    s = example_game()
    assert len(s.rolls) == 16
    assert s.phase == DRAW and s.to_act == frozenset()
    assert s.numbers("Cornelia") == tuple(EXAMPLE_SHEETS["Cornelia"])
    chance = s.chance()
    assert chance is not None and chance.kind == "draw" and len(chance.outcomes) == 16
    assert s.parse_move(chance.outcomes[0]) == Draw("identical-digits")
    refusal = s.check(Roll(3))
    assert refusal is not None and refusal.code == "not-now"


def test_the_rules_sheet_example_turn_through_the_engine():
    s = example_game().play(Draw("identical-digits"))
    assert s.phase == CLAIM and s.card == "identical-digits"
    order = ["Eustache", "Algernon", "Balthazar", "Cornelia", "Dorothy"]
    for player, move in zip(
        order, [Claim(22), Claim(88), Claim(88), Claim(44), Decline()], strict=True
    ):
        assert s.to_act == {player} and s.turn == player
        s = s.play(move, player=player)
    res = s.last_resolution
    assert res is not None
    assert res.explanation == "44 wins: 88 and 88 cancelled; 22 lower"
    assert s.score_of("Cornelia") == 4 and sum(s.scores) == 4
    assert s.chair == "Cornelia"
    assert s.won[s.index("Cornelia")] == ("identical-digits",)
    # every number chosen is used up, won or lost; Dorothy kept her 88
    assert 22 not in s.unused_numbers("Eustache")
    assert 88 not in s.unused_numbers("Algernon") and 88 in s.unused_numbers("Dorothy")
    assert 44 not in s.unused_numbers("Cornelia")
    # next turn: Cornelia draws, claims start from her; Dorothy takes it with 88
    s = s.play(Draw("min-digit-difference"))
    assert s.turn == "Cornelia"
    for player in ["Cornelia", "Dorothy", "Eustache", "Algernon", "Balthazar"]:
        s = s.play(Claim(88) if player == "Dorothy" else Decline(), player=player)
    assert s.last_resolution.winners == ("Dorothy",)
    assert s.chair == "Dorothy"
    assert s.score_of("Dorothy") == 2  # the companion's value for this card


def test_claim_refusals():
    s = example_game().play(Draw("max-number"))
    refusal = s.check(Claim(99, "Eustache"))
    assert refusal is not None and refusal.code == "not-your-number"
    assert refusal.reason == "99: not on your sheet"
    refusal = s.check(Claim(44, "Algernon"))
    assert refusal is not None and refusal.code == "not-your-turn"
    assert refusal.reason == "Eustache's turn to claim"
    refusal = s.check(Claim(44, "Algernon"), player="Eustache")
    assert refusal is not None and refusal.code == "wrong-player"
    refusal = s.check(Claim(44))
    assert refusal is not None and refusal.code == "no-player"
    refusal = s.check(Claim(44), player="Zed")
    assert refusal is not None and refusal.code == "unknown-player"
    refusal = s.check(Write(0, "Eustache"))
    assert refusal is not None and refusal.code == "not-now"
    with pytest.raises(IllegalMove) as info:
        s.play(Roll(4))
    assert info.value.refusal.code == "not-now"
    # Eustache has 13 twice: he may use it twice, not a third time
    for p in ["Eustache", "Algernon", "Balthazar", "Cornelia", "Dorothy"]:
        s = s.play(Claim(13) if p == "Eustache" else Decline(p), player=p)
    s = s.play(Draw("min-number"))  # Eustache won max-number: he is chair
    s = s.play(Claim(13, "Eustache"))
    for p in ["Algernon", "Balthazar", "Cornelia", "Dorothy"]:
        s = s.play(Decline(p))
    s = s.play(Draw("contains-1"))
    refusal = s.check(Claim(13, "Eustache"))
    assert refusal is not None and refusal.code == "number-used"
    assert refusal.reason == "13: already used"


def test_an_ineligible_claim_needs_a_confirmation_then_is_eliminated():
    s = example_game().play(Draw("contains-9"))
    # Eustache holds 79: 22 is a mistake the rules let him make, once he confirms it
    refusal = s.check(Claim(22, "Eustache"))
    assert refusal is not None and refusal.code == "would-burn"
    assert refusal.reason == "22: not eligible, it will be burned"
    assert refusal.confirm == "Eustache claim 22 burn"
    confirmed = s.parse_move(refusal.confirm)
    assert confirmed == Claim(22, "Eustache", burn=True)
    assert s.public_name(confirmed) == "Eustache claim"  # the table learns nothing more
    assert s.check(Claim(79, "Eustache", burn=True)).code == "eligible"
    s = s.play(confirmed)
    for p in ["Algernon", "Balthazar", "Cornelia", "Dorothy"]:
        s = s.play(Decline(p))
    assert dict(s.last_resolution.eliminated) == {"Eustache": "ineligible"}
    assert 22 not in s.unused_numbers("Eustache")
    assert s.chair == "Eustache" and sum(s.scores) == 0


def test_a_player_without_an_eligible_number_cannot_claim():
    s = write_sheets(new_game(players="Ann,Bob"), {
        "Ann": ["12", "34", "67", "80", "12", "34", "67", "89"],
        "Bob": ["21", "43", "76", "08", "21", "43", "76", "98"],
    }).play(Draw("contains-5"))  # fmt: skip
    assert s.eligible_numbers("Ann") == ()
    refusal = s.check(Claim(12, "Ann"))
    assert refusal is not None and refusal.code == "no-eligible"
    assert s.legal_moves("Ann") == [Decline("Ann")]  # the page offers only the pass
    # a claim made by mistake all the same (a record from a real table): eliminated
    burned = s.play(Claim(12, "Ann", burn=True)).play(Decline("Bob"))
    assert dict(burned.last_resolution.eliminated) == {"Ann": "ineligible"}
    assert burned.unused_numbers("Ann").count(12) == 1  # one of her two 12s used up


def claim_or_pass(s, player):
    """The player's first unused number (confirmed to burn when it is not eligible), or a
    pass when they hold no eligible number."""
    if not s.eligible_numbers(player):
        return s.play(Decline(player))
    n = s.unused_numbers(player)[0]
    return s.play(Claim(n, player, burn=n not in s.eligible_numbers(player)))


def all_pass_turn(s, card):
    s = s.play(Draw(card))
    while s.to_act:
        s = s.play(Decline(s.turn))
    return s


def test_the_game_ends_when_the_last_card_is_resolved():
    s = example_game()
    for card in s.remaining:
        assert not s.is_over()
        s = all_pass_turn(s, card)
        assert s.chair == "Eustache"  # discarded: the chair stays
    assert s.is_over() and s.phase == OVER
    assert s.legal_moves() == [] and s.chance() is None
    outcome = s.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.summary == "Eustache, Algernon, Balthazar, Cornelia and Dorothy tie on 0"
    assert outcome.detail["winners"] == list(s.players)
    assert outcome.detail["sheets"]["Dorothy"] == EXAMPLE_SHEETS["Dorothy"]
    assert len(outcome.detail["turns"]) == 16


def test_the_game_ends_after_the_turn_a_player_uses_their_last_number():
    s = new_game(players="Solo")
    s = write_sheets(s, {"Solo": ["10", "20", "30", "40", "50", "60", "70", "80"]})
    while s.unused_numbers("Solo"):
        assert not s.is_over()
        s = claim_or_pass(s.play(Draw(s.remaining[0])), "Solo")
    assert s.is_over() and s.remaining
    assert s.unused_numbers("Solo") == ()
    out = s.outcome()
    assert out is not None and out.winner == "Solo"
    assert out.summary == f"Solo wins with {s.score_of('Solo')}"


def test_transparency_announces_one_number_left():
    sheets = {"Ann": ["10", "20", "30", "40", "50", "60", "70", "80"]}
    sheets["Bob"] = ["01", "02", "03", "04", "05", "06", "07", "08"]
    plain = write_sheets(new_game(players="Ann,Bob"), sheets)
    clear = write_sheets(new_game(players="Ann,Bob", transparency=True), sheets)
    while len(clear.unused_numbers("Ann")) > 1:
        card = plain.remaining[0]
        plain = claim_or_pass(plain.play(Draw(card)), "Ann").play(Decline("Bob"))
        clear = claim_or_pass(clear.play(Draw(card)), "Ann").play(Decline("Bob"))
        left = len(clear.unused_numbers("Ann"))
        assert clear.announced == (("Ann",) if left == 1 else ())
        assert plain.announced == ()
    assert not clear.is_over()


def test_secrets_everyone_claims_at_once_and_hides_whether_they_claimed():
    s = example_game(secrets=True).play(Draw("identical-digits"))
    assert s.to_act == set(EXAMPLE_SHEETS) and s.turn is None
    claim, decline = Claim(44, "Cornelia"), Decline("Dorothy")
    assert s.public_name(claim) == s.public_name(decline.__class__("Cornelia"))
    assert s.public_name(claim) == "Cornelia chose"
    # any order: resolution is in seat order from the chair anyway
    moves = [Decline("Dorothy"), Claim(44, "Cornelia"), Claim(88, "Balthazar"),
             Claim(22, "Eustache"), Claim(88, "Algernon")]  # fmt: skip
    for m in moves:
        s = s.play(m)
    assert s.last_resolution.explanation == "44 wins: 88 and 88 cancelled; 22 lower"
    assert s.last_resolution.claims[0] == ("Eustache", 22)


def test_public_names_hide_cells_and_numbers():
    s = new_game(players="Ann,Bob").play(Roll(5))
    w = Write(parse_cell("4b"), "Ann")
    assert w.name == "Ann write 4b"
    assert s.public_name(w) == "Ann write"
    s = example_game().play(Draw("max-number"))
    c = Claim(44, "Eustache")
    assert c.name == "Eustache claim 44"
    assert s.public_name(c) == "Eustache claim"
    assert s.public_name(Decline("Eustache")) == "Eustache pass"
    assert s.public_name(Draw("max-number")) == "draw max-number"


def test_notation_round_trips():
    s = new_game(players="Ann,Bob")
    for text, move in [
        ("roll 7", Roll(7)),
        ("draw contains-5", Draw("contains-5")),
        ("Ann write 3a", Write(4, "Ann")),
        ("bob write 8b", Write(15, "Bob")),
        ("Ann claim 05", Claim(5, "Ann")),
        ("Bob pass", Decline("Bob")),
        ("claim 44", Claim(44)),
        ("write 1a", Write(0)),
    ]:
        assert s.parse_move(text) == move
        if getattr(move, "player", True) is not None:
            assert move.name.lower() == text.lower()


@pytest.mark.parametrize(
    "text",
    ["", "roll 10", "roll x", "draw nope", "Zed pass", "Ann claim 5", "Ann write 9a",
     "Ann write 1c", "Ann", "Ann jump", "Ann pass now"],
)  # fmt: skip
def test_bad_notation(text):
    with pytest.raises(ValueError):
        new_game(players="Ann,Bob").parse_move(text)


def test_cell_names():
    assert [cell_name(c) for c in (0, 1, 14, 15)] == ["1a", "1b", "8a", "8b"]
    assert all(parse_cell(cell_name(c)) == c for c in range(16))


def test_variants_score_through_the_engine():
    s = example_game(battle_royale=True).play(Draw("identical-digits"))
    for p, m in zip(s.claim_order(), [Claim(22), Claim(88), Claim(88), Claim(44), Decline()],
                    strict=True):  # fmt: skip
        s = s.play(m, player=p)
    assert s.score_of("Cornelia") == 5
    s = example_game(same_boat=True).play(Draw("identical-digits"))
    for p, m in zip(s.claim_order(), [Claim(22), Claim(88), Claim(88), Claim(44), Decline()],
                    strict=True):  # fmt: skip
        s = s.play(m, player=p)
    assert s.score_of("Cornelia") == 4 and s.score_of("Eustache") == 4
    assert s.chair == "Cornelia"
    assert s.won[s.index("Eustache")] == ()  # the card itself goes to the best number


def test_x_card_counts_claimants():
    s = example_game().play(Draw("closest-to-50"))
    for p, m in zip(s.claim_order(), [Claim(56), Claim(65), Claim(56), Decline(), Decline()],
                    strict=True):  # fmt: skip
        s = s.play(m, player=p)
    assert s.last_resolution.winners == ("Algernon",)
    assert s.score_of("Algernon") == 3


def test_custom_points_are_kept_in_the_options():
    from companion.games.binome.deck import builtin_deck

    text = builtin_deck().text().replace("identical-digits=4", "identical-digits=7")
    s = new_game(players=2, points=text)
    assert s.deck["identical-digits"] == 7
    assert s.options["points"] == text
    assert new_game().options["points"] == builtin_deck().text()  # explicit, not ''


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"players": "8"}, "1..7"),
        ({"players": "0"}, "1..7"),
        ({"players": "a,b,c,d,e,f,g,h"}, "1..7"),
        ({"players": "Ann,ann"}, "named twice"),
        ({"players": "Ann,roll"}, "reserved"),
        ({"players": "Ann,Bo b"}, "letters"),
        ({"players": "Ann,"}, "empty"),
        ({"players": "Ann,12"}, "number"),
        ({"players": "Ann", "solo": 7}, "above 6"),
        ({"players": "Ann,Bob", "solo": 2}, "exactly one player"),
        ({"players": "bot1", "solo": 2}, "virtual"),
        ({"chair": "Zed"}, "not a player"),
        ({"points": "identical-digits=4"}, "missing card"),
        ({"secrets": "maybe"}, "true or false"),
        ({"colour": "red"}, "unknown rule option"),
    ],
)
def test_bad_options(options, problem):
    with pytest.raises(ValueError, match=problem):
        new_game(**options)


def test_the_first_chair_is_named_in_any_case():
    assert new_game(players="Ann,Bob", chair="bob").chair == "Bob"
    assert new_game(players="Ann,Bob").chair == "Ann"
    assert new_game(players="Ann", solo=2, chair="BOT2").chair == "bot2"


def test_players_as_a_count_or_names():
    assert new_game(players=3).players == ("p1", "p2", "p3")
    assert new_game(players="Zoë,Åsa").players == ("Zoë", "Åsa")
    s = new_game(players="Ann", solo=3)
    assert s.players == ("Ann", "bot1", "bot2", "bot3")
    assert s.virtual == {"bot1", "bot2", "bot3"}


def test_replay_rebuilds_the_example_game():
    names: list[str] = []
    s = write_sheets(new_game(players=FIVE), EXAMPLE_SHEETS, names)
    for text in ["draw identical-digits", "Eustache claim 22", "Algernon claim 88",
                 "Balthazar claim 88", "Cornelia claim 44", "Dorothy pass"]:  # fmt: skip
        s = s.play(s.parse_move(text))
        names.append(text)
    assert get_spec("binome").replay(names, players=FIVE) == s
