"""Daemon configuration: a TOML file with sensible defaults, so no file is needed to start.

This reads the file into typed values and checks each value alone; every bad value gives one
line naming the key and what is wrong (ConfigError). What needs the games, the engines, the
pins or the web (a game's name and rules, an opponent) is checked by
``companion.service.config_check`` (``service.app.load_config`` runs it on the file it reads).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion import PROGRAM
from companion.core import toml_text
from companion.core.broker_url import parse_broker_url
from companion.core.sensors import SENSOR_KINDS
from companion.core.squares import MAX_SIZE, MIN_SIZE


class ConfigError(ValueError):
    """A config problem, as one line for the user."""


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return Path(base) / PROGRAM


@dataclass(frozen=True)
class GameConfig:
    name: str = ""  # "" = the default game (companion.games.DEFAULT_GAME)
    players: dict[str, str] = field(default_factory=dict)  # player id -> person's name
    # True when the game was named (config file or --game), not just the default: a named
    # game is started even when another game is in progress in the journal.
    chosen: bool = False
    # What the command line asked for by name: rule options ("size", "first"...) and
    # "players". A game in progress that differs in any of them is paused for a new one.
    given: tuple[str, ...] = ()
    # "engine", "engine:LEVEL" (the companion plays one side) or "remote:BOARD" (a player at
    # another board plays it, over the club's broker)
    opponent: str = ""
    opponent_side: str = ""  # the side the opponent plays ("" = the second player)
    # the tutor: a move the engine judges a blunder is held, said why, until confirmed
    tutor: bool = False


# keys kept under their old spelling: the old one still works in the file and in overrides
ALIASES = {"engine_side": "opponent_side"}


@dataclass(frozen=True)
class BoardConfig:
    driver: str = "auto"  # auto | mock | serial:PORT | gpio
    kind: str = "switch"  # mock and GPIO boards, the Pico's config.py (a serial board says its own)
    size: int = 8
    debounce_ms: int = 20
    settle_ms: int = 300
    scan_hz: int = 200
    rows: tuple[int, ...] = ()  # GPIO pins; empty = the defaults of companion.hardware.pinout
    cols: tuple[int, ...] = ()


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "auto"  # auto | terminal | emulator | ssd1306 | sh1106 | dummy | none
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi: bool = False
    rotate: int = 0
    message_seconds: float = 4.0


@dataclass(frozen=True)
class LedConfig:
    # auto: the board's own chain (Pico), else SPI on a Pi, else none | board | spi | ws281x | none
    driver: str = "auto"
    pin: int = 0  # 0 = the default of companion.hardware.pinout
    brightness: float = 0.25


@dataclass(frozen=True)
class ButtonConfig:
    enabled: str = "auto"  # auto (on a Pi) | yes | no
    confirm: int = 0  # 0 = the default of companion.hardware.pinout
    undo: int = 0
    menu: int = 0
    talk: int = 0  # a push-to-talk button of its own ([voice] push_to_talk = "talk"); 0 = none
    buzzer: int = 0  # GPIO of the buzzer (26 in hardware/README.md); 0 = no buzzer
    buzzer_kind: str = "passive"  # passive: a piezo played with a PWM tone | active: on/off
    hold_seconds: float = 1.0


@dataclass(frozen=True)
class JournalConfig:
    path: str = ""  # empty = $XDG_STATE_HOME/binaryon/journal.sqlite; "none" = no journal


@dataclass(frozen=True)
class WebConfig:
    # "HOST:PORT" for the table page and the players' pages, e.g. "0.0.0.0:8080"; "" = off
    listen: str = ""
    # names the pages also answer to, besides localhost, loopback, the listen address and this
    # machine's own names and addresses (a DNS rebinding guard); ["*"] answers to any name
    hosts: tuple[str, ...] = ()


FIRST_MOVES = ("free", "timed")  # [clock] first_move


@dataclass(frozen=True)
class ClockConfig:
    # the game clock: a time control as typed ("5:00+3", "0:30+0", "5:00d2", "1:00h"),
    # "default" for the one the game's rules page suggests, "" or "none" for no clock
    control: str = ""
    # a casual game's first move: "free" (nothing runs until it is made, no increment for it)
    # or "timed" (FIDE: the first player's time runs from the start). An event's games are
    # always timed, whatever this says
    first_move: str = "free"


@dataclass(frozen=True)
class ClubConfig:
    """Club night (docs/club.md): the board publishes to an MQTT broker. The user, password
    and CA file come from the config file only, never the command line."""

    broker: str = ""  # "mqtt://HOST:PORT" or "mqtts://HOST:PORT"; "" = no club
    board: str = ""  # this board's name on the broker (one topic level)
    user: str = ""
    password: str = ""
    ca_file: str = ""  # mqtts: the CA that signed the broker's certificate ("" = the system's)
    # remote play: seconds a finished game waits for the peer's secret moves, then its result
    # goes to the hub "unverified"; as long for a fact the peer owes (docs/club.md, "A
    # dishonest peer")
    reveal_timeout: float = 120.0


@dataclass(frozen=True)
class FirmwareConfig:
    """The Pico's own settings, written into its config.py by ``binaryon firmware install``
    (with [board] size, kind and debounce_ms and [leds] brightness). Empty, -1 or 0: the value
    shipped in firmware/config.py."""

    rows: tuple[int, ...] = ()  # Pico GPIOs (GPn) of ranks 1..n
    cols: tuple[int, ...] = ()  # files a.. (the black-up sensors on a polarity board)
    cols_b: tuple[int, ...] = ()  # polarity boards: the white-up sensors' columns
    led_pin: int = -1
    led_serpentine: bool = False  # the LED chain snakes: every other rank runs h..a
    led_supply_amps: float = 0.0
    watchdog_ms: int = -1  # 0 = off
    hall_settle_us: int = 0


@dataclass(frozen=True)
class VoiceConfig:
    """Speech out (espeak-ng) and commands by voice (pocketsphinx): docs in README, "Voice"."""

    speak: str = "off"  # "off", "moves" (moves, refusals, results) or "all"
    voice: str = "en-us"  # an espeak-ng voice (`espeak-ng --voices`)
    rate: int = 165  # words per minute
    volume: int = 100  # espeak-ng's amplitude, 0..200
    device: str = "default"  # the ALSA output device (`aplay -L`)
    listen: bool = False  # commands by voice
    microphone: str = "default"  # the ALSA capture device (`arecord -L`)
    wake: str = "companion"  # the word before a command (push_to_talk "off")
    # "off": the wake word; "menu": hold menu and speak (a tap is still the hint); "talk":
    # hold the talk button ([buttons] talk) and speak
    push_to_talk: str = "off"


VOICE_SPEAK = ("off", "moves", "all")
PUSH_TO_TALK = ("off", "menu", "talk")


@dataclass(frozen=True)
class Config:
    game: GameConfig = field(default_factory=GameConfig)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> option values
    board: BoardConfig = field(default_factory=BoardConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    web: WebConfig = field(default_factory=WebConfig)
    firmware: FirmwareConfig = field(default_factory=FirmwareConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)

    @classmethod
    def default(cls) -> Config:
        return cls()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Config:
        """Read a TOML file (UTF-8, a byte-order mark allowed). A relative journal path in it
        is taken from the file's folder, not from wherever the command was started."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such config file") from None
        except IsADirectoryError:
            raise ConfigError(f"{path}: is a folder, not a config file") from None
        except OSError as e:
            raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ConfigError(
                f"{path}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start})"
            ) from None
        try:
            data = toml_text.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML: {e}") from None
        config = cls.from_dict(data, source=str(path))
        folder = os.path.dirname(os.path.abspath(path))
        journal, ca_file = config.journal.path, config.club.ca_file
        if journal and journal.lower() != "none":
            full = os.path.join(folder, os.path.expanduser(journal))
            config = replace(config, journal=replace(config.journal, path=full))
        if ca_file:  # like the journal: from the file's folder
            full = os.path.join(folder, os.path.expanduser(ca_file))
            config = replace(config, club=replace(config.club, ca_file=full))
        return config

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> Config:
        sections = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(sections))
        if unknown:
            raise ConfigError(f"{source}: unknown section [{unknown[0]}]")
        values: dict[str, Any] = {}
        for name, value in data.items():
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: [{name}] must be a table")
            if name == "rules":
                values[name] = _rules(value, source)
                continue
            default = getattr(cls(), name)
            values[name] = _section(default, value, f"{source}: [{name}]")
        config = cls(**values)
        config.validate(source)
        return config

    def with_overrides(self, **sections: dict[str, Any]) -> Config:
        """A copy with some keys replaced, e.g. with_overrides(board={"driver": "mock"})."""
        out = self
        for name, changes in sections.items():
            if not changes:
                continue
            if name == "rules":
                rules = {g: dict(v) for g, v in self.rules.items()}
                for game, opts in changes.items():
                    rules.setdefault(game, {}).update(opts)
                out = replace(out, rules=rules)
            else:
                out = replace(out, **{name: _section(getattr(out, name), changes, f"[{name}]")})
        out.validate("")
        return out

    def journal_path(self) -> Path | None:
        if self.journal.path.lower() == "none":
            return None
        if self.journal.path:
            return Path(os.path.expanduser(self.journal.path))
        return default_state_dir() / "journal.sqlite"

    def validate(self, source: str) -> None:
        """The checks each value can have alone. What depends on the games, the engines, the
        pins or the web (a game's name, players and rules, an opponent, a pin used twice) is
        checked above: ``companion.service.config_check``."""

        def bad(msg: str) -> ConfigError:
            return ConfigError(f"{source}: {msg}" if source else msg)

        b = self.board
        if not (MIN_SIZE <= b.size <= MAX_SIZE and b.size % 2 == 0):
            raise bad(f"[board] size {b.size} must be even, {MIN_SIZE}..{MAX_SIZE}")
        if b.kind not in SENSOR_KINDS:
            raise bad(f"[board] kind {b.kind!r} is not one of {', '.join(SENSOR_KINDS)}")
        for where, pin in (*(("rows", p) for p in b.rows), *(("cols", p) for p in b.cols)):
            if pin < 0:
                raise bad(f"[board] {where}: GPIO {pin} is negative")
        if not 0 <= b.debounce_ms <= 500 or not 0 <= b.settle_ms <= 5000:
            raise bad("[board] debounce_ms must be 0..500 and settle_ms 0..5000")
        if not 10 <= b.scan_hz <= 2000:
            raise bad(f"[board] scan_hz {b.scan_hz} must be 10..2000")
        d = self.display
        drivers = ("auto", "terminal", "emulator", "ssd1306", "sh1106", "dummy", "none")
        if d.driver not in drivers:
            raise bad(f"[display] driver {d.driver!r} is not one of {', '.join(drivers)}")
        if d.i2c_port < 0:
            raise bad(f"[display] i2c_port {d.i2c_port} is negative")
        if not 0x03 <= d.i2c_address <= 0x77:
            raise bad(f"[display] i2c_address {d.i2c_address} must be 0x03..0x77 (7-bit)")
        if d.rotate not in (0, 1, 2, 3):
            raise bad("[display] rotate must be 0, 1, 2 or 3")
        if not 0.5 <= d.message_seconds <= 60:
            raise bad("[display] message_seconds must be 0.5..60")
        if self.leds.driver not in ("auto", "board", "spi", "ws281x", "none"):
            raise bad(f"[leds] driver {self.leds.driver!r}: use auto, board, spi, ws281x or none")
        if not 0.0 <= self.leds.brightness <= 1.0:
            raise bad("[leds] brightness must be 0.0..1.0")
        if self.leds.pin < 0:
            raise bad(f"[leds] pin {self.leds.pin} is negative")
        if self.buttons.enabled not in ("auto", "yes", "no"):
            raise bad("[buttons] enabled must be auto, yes or no")
        if not 0.2 <= self.buttons.hold_seconds <= 10:
            raise bad("[buttons] hold_seconds must be 0.2..10")
        for name in ("confirm", "undo", "menu", "talk", "buzzer"):
            if (pin := getattr(self.buttons, name)) < 0:
                raise bad(f"[buttons] {name}: GPIO {pin} is negative")
        if self.buttons.buzzer_kind not in ("passive", "active"):
            raise bad(f"[buttons] buzzer_kind {self.buttons.buzzer_kind!r}: use passive or active")
        if self.clock.first_move not in FIRST_MOVES:
            raise bad(f"[clock] first_move {self.clock.first_move!r}: use free or timed")
        if problem := journal_path_problem(self.journal.path):
            raise bad(f"[journal] path {self.journal.path!r}: {problem}")
        if problem := club_problem(self.club):
            raise bad(problem)
        if problem := voice_problem(self.voice):
            raise bad(problem)
        if self.voice.push_to_talk == "talk" and not self.buttons.talk:
            raise bad('[voice] push_to_talk = "talk" needs the button\'s GPIO: [buttons] talk')


def club_problem(club: ClubConfig) -> str | None:
    """What is wrong with the [club] table alone, or None. The board's name is checked in
    ``companion.service.config_check``, for a board: the hub (``binaryon club``) reads the
    same table without one. A table without a broker is not refused here: the broker may
    come from the command line (``--club``, ``--broker``) with the user and password from
    the file; ``club_without_broker`` says what is left unused once it did not."""
    if not 0 < club.reveal_timeout <= 86400:
        return f"[club] reveal_timeout {club.reveal_timeout:g}: seconds, more than 0, at most a day"
    if not club.broker:
        return None
    try:
        address = parse_broker_url(club.broker)
    except ValueError as e:
        return f"[club] broker {e}"
    if club.password and not club.user:
        return "[club] password without a user"
    if club.ca_file and not address.tls:
        return "[club] ca_file is for mqtts:// brokers (TLS)"
    return None


def voice_problem(voice: VoiceConfig) -> str | None:
    """What is wrong with [voice], in one line; None when nothing is."""
    if voice.speak not in VOICE_SPEAK:
        return f"[voice] speak {voice.speak!r} is not one of {', '.join(VOICE_SPEAK)}"
    if not 80 <= voice.rate <= 450:
        return f"[voice] rate {voice.rate} must be 80..450 words a minute"
    if not 0 <= voice.volume <= 200:
        return f"[voice] volume {voice.volume} must be 0..200"
    for key in ("voice", "device", "microphone"):
        value = getattr(voice, key)
        if not value or not all(c.isalnum() or c in "-_+:.,=/@" for c in value):
            return f"[voice] {key} {value!r}: use a name of letters, digits and -_+:.,=/@"
    if voice.push_to_talk not in PUSH_TO_TALK:
        kinds = ", ".join(PUSH_TO_TALK)
        return f"[voice] push_to_talk {voice.push_to_talk!r} is not one of {kinds}"
    if voice.wake and not all(c.isalpha() or c == " " for c in voice.wake):
        return f"[voice] wake {voice.wake!r}: use words of letters"
    if not voice.wake.strip() and voice.push_to_talk == "off":
        return '[voice] wake "": without a wake word, set push_to_talk to "menu" or "talk"'
    return None


def club_without_broker(club: ClubConfig) -> str | None:
    """A [club] table that names a board, a user, a password or a CA file, with no broker
    from the file or the command line: one line, or None."""
    if club.broker:
        return None
    given = [k for k in ("board", "user", "password", "ca_file") if getattr(club, k)]
    return f'[club] {given[0]} needs a broker (broker = "mqtt://HOST:PORT")' if given else None


def journal_path_problem(path: str) -> str | None:
    """Why a configured journal path cannot be used as it is, or None."""
    if path == "" or path.lower() == "none":
        return None
    if not path.strip():
        return 'blank (leave it out for the default, or write "none")'
    if "\0" in path:
        return "contains a NUL character"
    if path.startswith("~") and os.path.expanduser(path).startswith("~"):
        user = path[1:].split("/", 1)[0]
        return f"no user {user!r} on this machine" if user else "no home folder to expand ~ to"
    return None


def _rules(value: dict[str, Any], source: str) -> dict[str, dict[str, Any]]:
    """[rules.GAME] tables, one per game (checked against the games' options above core)."""
    out = {}
    for game, options in value.items():
        if not isinstance(options, dict):
            raise ConfigError(f"{source}: [rules] {game} = ...: use a table [rules.GAME]")
        out[game] = dict(options)
    return out


def _section(default: Any, given: dict[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(default) if f.name not in ("chosen", "given")}
    changes = {}
    if isinstance(default, GameConfig) and "name" in given:
        changes["chosen"] = True
    for key, value in given.items():
        if isinstance(default, GameConfig) and key in ALIASES:
            key = ALIASES[key]  # the old spelling of a key
        if key not in known:
            raise ConfigError(f"{where} unknown key {key!r} (known: {', '.join(known)})")
        current = getattr(default, key)
        changes[key] = _coerce(current, value, f"{where} {key}", str(known[key].type))
    return replace(default, **changes)


def _coerce(current: Any, value: Any, where: str, kind: str = "") -> Any:
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    if isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(f"{where}: expected a whole number, got {value!r}")
    if isinstance(current, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(f"{where}: expected a number, got {value!r}")
    if isinstance(current, str):
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: expected text, got {value!r}")
    if isinstance(current, tuple) and "str" in kind:  # [web] hosts
        if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
            return tuple(v.strip() for v in value)
        raise ConfigError(f"{where}: expected a list of names in quotes, got {value!r}")
    if isinstance(current, tuple):
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return tuple(value)
        raise ConfigError(f"{where}: expected a list of whole numbers, got {value!r}")
    if isinstance(current, dict):  # [game] players: id -> a person's name
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a table, got {value!r}")
        for k, v in value.items():
            if not isinstance(v, str):
                raise ConfigError(f"{where}: {k} must be a name in quotes, got {v!r}")
        return {str(k): v for k, v in value.items()}
    raise ConfigError(f"{where}: unsupported value {value!r}")
