"""Nothing is said aloud that the table page would not show: whole games of each of the five
games played through the daemon with the voice on (every line said, into WAV files and
``said.txt``), each line checked against the secrets still hidden when it was said (a secret
move's words its public name leaves out: a Binøme number before its turn resolves, a cell of a
sheet, a Latent Binaries pawn), and each WAV checked to be exactly what espeak-ng says for its
line, so the audio holds nothing the text does not."""

from __future__ import annotations

import json
import random
import re
import subprocess
import wave

import pytest

from companion.core.config import Config
from companion.games import game_names, register, unregister
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.service.voice_setup import start_voice
from companion.voice.speech import VoiceSettings, espeak_command
from tests.conftest import FakeClock
from tests.voice_tools import needs_espeak

GAMES = ("binaryon", "binary", "wythe", "binome", "latent-binaries")
MOST_STEPS = 600


@pytest.fixture(autouse=True)
def every_game():
    known = "latent-binaries" in game_names()
    register("latent-binaries", "companion.games.latent_binaries.spec")
    yield
    if not known:
        unregister("latent-binaries")


def hidden_words(name: str, public: str) -> list[str]:
    """The words of a move's full name that its public name leaves out ('red/yellow')."""
    shown = set(public.split())
    return [w for w in name.split() if w not in shown]


def table_text(d) -> str:
    """Everything the table shows: the table page's view and the OLED's screen."""
    return json.dumps(d.web_view(None)) + str(d.screen())


def said_lines(folder) -> list[tuple[str, str]]:
    path = folder / "said.txt"
    if not path.exists():
        return []
    return [tuple(line.split("\t", 1)) for line in path.read_text().splitlines()]


def play_whole_game(d, rng) -> int:
    """Every player's move chosen at random from what their page offers (else the legal
    moves), as the pages would send it, until the game ends; returns the steps."""
    spec = d.session.spec
    for steps in range(MOST_STEPS):
        state = d.session.state
        if state.is_over():
            return steps
        yield_step = sorted(state.to_act - state.virtual)
        player = yield_step[0]
        names = [a for a, _ in spec.view(state, player).actions]
        names = names or [m.name for m in state.legal_moves(player)]
        result = d.submit(rng.choice(names), player)
        d.loop.run_pending()
        if not result.accepted and result.refusal is not None and result.refusal.confirm:
            d.submit(result.refusal.confirm, player)  # Binøme: a number burned, confirmed
            d.loop.run_pending()
        yield steps
    raise AssertionError(f"{spec.name}: no end after {MOST_STEPS} moves")


@needs_espeak
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_said_aloud_tells_no_secret_before_the_table(game, tmp_path):
    clock = FakeClock()
    cfg = Config.default().with_overrides(game={"name": game}, voice={"speak": "all"})
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock, rng=random.Random(7))
    out = tmp_path / "voice"
    close = start_voice(cfg, d, voice_to=out)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    seen = 0
    checked = 0
    try:
        for _ in play_whole_game(d, random.Random(game)):
            assert d.voice.queue.wait_idle(30)
            lines = said_lines(out)
            new, seen = lines[seen:], len(lines)
            table = table_text(d)
            hidden = {
                w
                for p in d.session.played
                if p.name != p.public
                for w in hidden_words(p.name, p.public)
                if not re.search(rf"(?<![\w/]){re.escape(w)}(?![\w/])", table)
            }
            for _, text in new:
                for word in hidden:
                    assert not re.search(rf"(?<![\w/]){re.escape(word)}(?![\w/])", text), (
                        word,
                        text,
                    )
                checked += 1
    finally:
        close()
    assert d.session.state.is_over()
    lines = said_lines(out)
    assert checked > 0 and len(lines) >= checked
    # the audio is the text: each WAV is espeak-ng's own for its line, sample for sample
    settings = VoiceSettings(cfg.voice.voice, cfg.voice.rate, cfg.voice.volume)
    for number, text in lines[:: max(1, len(lines) // 40)]:
        if text.endswith(" [cut]"):
            continue
        made = subprocess.run(espeak_command(settings), input=text.encode(), capture_output=True)
        with wave.open(str(out / f"{number}.wav")) as w:
            samples = w.readframes(w.getnframes())
        assert made.stdout.endswith(samples) and len(samples) > 4000, (number, text)
