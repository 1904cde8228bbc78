"""Binøme's spec: registration, the protocol v2 members, the table's and players' views
(no secret where it does not belong), the LEDs, the deck option and the CLI entry."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import game_commands, get_spec
from companion.games.base import Pending
from companion.games.binome.moves import Claim, Decline, Draw, Roll, Write
from companion.games.binome.spec import GLYPHS, SHORT, card_label
from tests.games.binome.test_engine import EXAMPLE_SHEETS, FIVE, write_sheets

SPEC = get_spec("binome")


def table_text(state) -> str:
    return json.dumps(asdict(SPEC.view(state, None)))


def claim_phase(**options):
    s = write_sheets(SPEC.new(players=FIVE, chair="Eustache", **options), EXAMPLE_SHEETS)
    return s.play(Draw("identical-digits"))


def test_registered_without_a_board_and_with_its_command():
    assert SPEC.name == "binome" and SPEC.sensor_kinds == ()
    assert SPEC.layout(SPEC.resolve({})) is None
    assert game_commands()["binome"][0] == "companion.games.binome.resolve_cli"
    assert all(len(f"{title} Xpt") <= 21 for title in SHORT.values())
    assert set(SHORT) == set(SPEC.new().deck)


def test_the_binaryon_command_resolves_a_turn():
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "binome", "resolve", "identical-digits",
         "A=44", "B=44", "C=22", "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "postulate": "identical-digits",
        "winners": ["C"],
        "eliminated": {"A": "identical", "B": "identical"},
        "points": {"A": 0, "B": 0, "C": 4},
    }


def test_chance_steps_are_move_names_and_players_act_for_themselves():
    s = SPEC.new(players="Ann,Bob")
    chance = s.chance()
    assert chance.kind == "d10" and chance.outcomes[7] == "roll 7"
    s = s.play(s.parse_move("roll 7"))
    assert s.chance() is None
    write = Write(5, "Bob")
    assert s.actor(write) == "Bob" and s.actor(Roll(3)) is None
    assert s.public_name(write) == "Bob write" and write.name == "Bob write 3b"
    assert not s.revealed()


def test_the_table_sees_who_claimed_but_not_the_number():
    s = claim_phase().play(Claim(22, "Eustache")).play(Decline("Algernon"))
    view = SPEC.view(s, None)
    text = table_text(s)
    assert "Eustache claims, Algernon passes; Balthazar to choose." in view.explanation
    assert "Eustache 22" not in text and "claim 22" not in text
    assert view.panel.note == "Identical digits 4pt" and view.panel.corner == "deck 15"
    assert [r.to_move for r in view.panel.rows] == [False, False, True, False, False]
    # Eustache sees his own claim and sheet on his page, Balthazar does not
    own = SPEC.view(s, "Eustache")
    assert "your choice this turn: claim 22" in own.private
    assert "your number 1: 22" in own.private
    assert "your choice this turn: claim 22" not in json.dumps(asdict(SPEC.view(s, "Balthazar")))


def test_with_secrets_not_even_whether_a_player_claimed():
    s = claim_phase(secrets=True).play(Claim(22, "Eustache")).play(Decline("Cornelia"))
    text = table_text(s)
    assert "Chosen in secret: Eustache and Cornelia" in text
    assert "claims" not in text and "passes" not in text
    assert s.public_name(Decline("Cornelia")) == "Cornelia chose"


def test_the_resolution_is_explained_once_the_turn_is_over():
    s = claim_phase()
    for move in (Claim(22, "Eustache"), Claim(88, "Algernon"), Claim(88, "Balthazar"),
                 Claim(44, "Cornelia"), Decline("Dorothy")):  # fmt: skip
        s = s.play(move)
    lines = SPEC.view(s, None).explanation
    assert (
        "Last turn, Two identical digits: 44 wins: 88 and 88 cancelled; 22 lower "
        "(claims: Eustache 22, Algernon 88, Balthazar 88, Cornelia 44; Cornelia +4)."
    ) in lines
    assert "Score: Eustache 0, Algernon 0, Balthazar 0, Cornelia 4, Dorothy 0." in lines
    assert "Deck: 15 of 16 cards left." in lines


def test_actions_are_the_viewers_legal_moves_with_labels():
    s = SPEC.new(players="Ann,Bob").play(Roll(4))
    actions = dict(SPEC.view(s, "Ann").actions)
    assert len(actions) == 16
    assert actions["Ann write 3a"] == "write 4 into number 3, first digit"
    assert actions["Ann write 8b"] == "write 4 into number 8, second digit"
    assert SPEC.view(s, None).actions == () and SPEC.view(s, None).private == ()
    c = claim_phase()
    actions = dict(SPEC.view(c, "Eustache").actions)
    assert actions["Eustache claim 22"] == "claim with 22 (number 1)"
    assert actions["Eustache pass"] == "pass (keep my numbers)"
    assert SPEC.view(c, "Algernon").actions == ()  # not his turn yet


def test_the_leds_show_the_digit_then_the_deck():
    s = SPEC.new(players="Ann").play(Roll(8))
    leds = SPEC.view(s).leds
    assert len(leds) == 64
    glyph = sum(row.count("#") for row in GLYPHS[8])
    assert sum(1 for c in leds[8:] if c != (0, 0, 0)) == glyph
    assert sum(1 for c in leds[:8] if c != (0, 0, 0)) == 1  # one roll done
    c = claim_phase()
    assert sum(1 for rgb in SPEC.view(c).leds if rgb != (0, 0, 0)) == 15


def test_confirm_pages_and_no_board():
    interpreter = SPEC.interpreter("switch")
    s = claim_phase()
    assert interpreter.press(s, 3) is None and interpreter.expected(s) == []
    first = interpreter.button(s, "confirm")
    assert first == Pending((), "to choose: Eustache")
    assert interpreter.button(s, "confirm") == Pending(
        (), "score: Eustache 0, Algernon 0, Balthazar 0, Cornelia 0, Dorothy 0"
    )
    assert interpreter.button(s, "confirm") == first  # round again
    interpreter.reset()
    assert interpreter.button(s, "confirm") == first
    assert interpreter.button(s, "undo") is None


def test_the_end_reveals_the_sheets_and_says_why():
    s = claim_phase()
    while not s.is_over():
        if s.card is None:
            s = s.play(Draw(s.remaining[0]))
        for p in s.claim_order():
            s = s.play(Decline(p))
    outcome = s.outcome()
    assert outcome.winners == s.players and outcome.reason == "equal top scores share the win"
    view = SPEC.view(s, None)
    assert "Eustache's sheet: 22 88 44 13 56 79 00 13." in view.explanation
    assert view.panel.note == "the last card was resolved"
    assert s.revealed()


def test_a_single_winner_and_the_runner_up():
    s = claim_phase()
    for move in (Claim(22, "Eustache"), Claim(88, "Algernon"), Claim(88, "Balthazar"),
                 Claim(44, "Cornelia"), Decline("Dorothy")):  # fmt: skip
        s = s.play(move)
    while not s.is_over():
        if s.card is None:
            s = s.play(Draw(s.remaining[0]))
        for p in s.claim_order():
            s = s.play(Decline(p))
    outcome = s.outcome()
    assert outcome.winners == ("Cornelia",) and outcome.winner == "Cornelia"
    assert outcome.summary == "Cornelia wins with 4" and outcome.reason == "Eustache next with 0"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "cannot read"),
        ("[cards]\nidentical-digits = 4\n", "missing card"),
        ("not toml [", "not valid TOML"),
    ],
)
def test_a_bad_deck_file_is_one_line(tmp_path, content, reason):
    path = tmp_path / "deck.toml"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ValueError) as err:
        SPEC.resolve({"deck": str(path)})
    assert str(err.value).startswith("deck: ") and reason in str(err.value)
    assert "\n" not in str(err.value)


def test_points_given_win_over_the_deck_file_so_a_record_replays(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text("[cards]\n" + "".join(f"{c} = 9\n" for c in SHORT))
    options = SPEC.resolve({"deck": str(path)})
    assert card_label(SPEC.new(**options), "contains-0") == "Contains 0 9pt"
    path.unlink()  # the file is gone: the resolved options still start the same game
    again = SPEC.resolve(options)
    assert again == options and SPEC.new(**again).deck["contains-0"] == 9


def with_other_secrets(state, secrets: bool):
    """The same game as the table knows it, with other sheets and other open claims (with
    ``secrets``, claims and passes swapped too)."""
    sheets = tuple(tuple(None if d is None else (d + 3) % 10 for d in sh) for sh in state.sheets)
    decided = tuple(
        (p, (None if n is not None else 42) if secrets else (n if n is None else (n + 7) % 100))
        for p, n in state.decided
    )
    return replace(state, sheets=sheets, decided=decided)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_table_never_shows_a_sheet_or_an_open_claim(data):
    """The table's view is the same whatever the sheets and the open claims are."""
    secrets = data.draw(st.booleans())
    s = SPEC.new(players="a,b,c", secrets=secrets)
    while not s.is_over():
        chance = s.chance()
        if chance is not None:
            s = s.play(s.parse_move(data.draw(st.sampled_from(chance.outcomes))))
            continue
        player = data.draw(st.sampled_from(sorted(s.to_act)))
        s = s.play(data.draw(st.sampled_from(s.legal_moves(player))))
        if s.is_over():
            break
        other = with_other_secrets(s, secrets)
        assert SPEC.view(s, None) == SPEC.view(other, None)
        assert all(SPEC.hint(s, k) == SPEC.hint(other, k) for k in range(3))  # the OLED's
        assert "your " not in table_text(s)
