"""Rule options of Latent Binaries and the tables derived from them (``Rules``).

The rules leave several facts open (see docs/rules/latent-binaries.md); each choice is an
option here. One default differs from the rules sheet: ``pawns`` is 4, because with 3 pawns of
each of 4 colours and "at least two of every colour left over" at most 4 pawns can be hidden,
and 3 nests need 6. ``resolve`` refuses any combination whose setup is impossible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ..base import Option, resolve_options
from .geometry import FILES, HEIGHT, index

RAINBOW, XENO = "rainbow", "xeno"
PLAYERS: Final = (RAINBOW, XENO)
RESERVED: Final = frozenset({"setup", "challenge", "order", "marker", "end", "pass"})
MIN_LEFT: Final = 2  # pawns of every colour that must stay in the visible stash
BASE_PAIRS: Final = ("a-b", "b-c", "c-d", "d-e")
# Starting files when ``columns`` is not given: the rules' b,c,d for 3 nests, else centred.
CENTRED: Final = {1: "c", 2: "b,d", 3: "b,c,d", 4: "a,b,d,e", 5: "a,b,c,d,e"}


def other(player: str) -> str:
    return XENO if player == RAINBOW else RAINBOW


def _split(value: str) -> list[str]:
    return [w.strip().lower() for w in value.split(",") if w.strip()]


def _check_columns(value: str) -> str | None:
    files = _split(value)
    if not files:
        return "name at least one file (a-e)"
    bad = [f for f in files if len(f) != 1 or f not in FILES]
    if bad:
        return f"{bad[0]!r} is not a file a-e"
    if len(set(files)) != len(files):
        return "a file is named twice"
    return None


def _check_colours(value: str) -> str | None:
    words = _split(value)
    if not 2 <= len(words) <= 8:
        return "name 2 to 8 colours, separated by commas"
    bad = [w for w in words if not w.isalpha() or w in RESERVED]
    if bad:
        return f"{bad[0]!r} cannot be a colour name"
    if len(set(words)) != len(words):
        return "a colour is named twice"
    return None


OPTIONS: Final = (
    Option("first", RAINBOW, "who moves first after the setup", choices=PLAYERS),
    Option("nests", 3, "nests per player", kind=int, minimum=1, maximum=5),
    Option("pawns", 4, "pawns of each colour", kind=int, minimum=3, maximum=9),
    Option("columns", "b,c,d", "files of the starting nests, e.g. b,c,d", check=_check_columns),
    Option("rainbow_colours", "red,yellow,green,blue", "Rainbow's pawn colours",
           check=_check_colours),
    Option("xeno_colours", "cyan,magenta,orange,purple", "Xeno's pawn colours",
           check=_check_colours),
    Option("rainbow_base", "b-c", "files of Rainbow's base markers (rank 1)", choices=BASE_PAIRS),
    Option("xeno_base", "c-d", "files of Xeno's base markers (rank 7)", choices=BASE_PAIRS),
    Option("order_reveal", True, "a wrong order guess shows the order to both players",
           kind=bool),
)  # fmt: skip


def hidden_capacity(colours: int, pawns: int, nests: int) -> int:
    """How many pawns a player can hide: each colour keeps MIN_LEFT and is used at most once
    per nest."""
    return colours * min(pawns - MIN_LEFT, nests)


def resolve(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults overlaid with ``given``, validated together; ValueError names the option."""
    given = dict(given or {})
    out = resolve_options(OPTIONS, given)
    if "columns" not in given:
        out["columns"] = CENTRED[out["nests"]]
    files = _split(out["columns"])
    if len(files) != out["nests"]:
        raise ValueError(f"columns: {len(files)} files for {out['nests']} nests")
    out["columns"] = ",".join(sorted(files))
    for key in ("rainbow_colours", "xeno_colours"):
        out[key] = ",".join(_split(out[key]))
    shared = set(_split(out["rainbow_colours"])) & set(_split(out["xeno_colours"]))
    if shared:
        raise ValueError(f"xeno_colours: {sorted(shared)[0]} is also a Rainbow colour")
    for key in ("rainbow_colours", "xeno_colours"):
        k = len(_split(out[key]))
        room = hidden_capacity(k, out["pawns"], out["nests"])
        if room < 2 * out["nests"]:
            raise ValueError(
                f"pawns: {out['pawns']} of {k} colours hide at most {room} pawns "
                f"(keeping {MIN_LEFT} of each), {out['nests']} nests need {2 * out['nests']}"
            )
    return out


@dataclass(frozen=True)
class Rules:
    """Everything fixed for one game, derived from its resolved options."""

    options: tuple[tuple[str, Any], ...]
    first: str
    nests: int
    pawns: int
    colours: tuple[tuple[str, ...], tuple[str, ...]]  # by player index
    starts: tuple[tuple[int, ...], tuple[int, ...]]  # starting squares by player index
    bases: tuple[int, int]  # first file of the marker pair on rank 1 and on rank 7
    order_reveal: bool

    def colours_of(self, player: str) -> tuple[str, ...]:
        return self.colours[PLAYERS.index(player)]

    def colour_word(self, word: str) -> str:
        """A typed colour: a full name, or an initial that names one colour only."""
        w = word.strip().lower()
        every = self.colours[0] + self.colours[1]
        if w in every:
            return w
        matches = [c for c in every if c.startswith(w)] if w else []
        return matches[0] if len(matches) == 1 else w


def _build(opts: dict[str, Any]) -> Rules:
    files = [FILES.index(f) for f in _split(opts["columns"])]
    return Rules(
        options=tuple(sorted(opts.items())),
        first=opts["first"],
        nests=opts["nests"],
        pawns=opts["pawns"],
        colours=(
            tuple(_split(opts["rainbow_colours"])),
            tuple(_split(opts["xeno_colours"])),
        ),
        starts=(
            tuple(index(f, 1) for f in files),  # Rainbow's home row is rank 2
            tuple(index(f, HEIGHT - 2) for f in files),  # Xeno's is rank 6
        ),
        bases=(FILES.index(opts["rainbow_base"][0]), FILES.index(opts["xeno_base"][0])),
        order_reveal=opts["order_reveal"],
    )


@lru_cache(maxsize=32)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return _build(dict(key))


def rules(given: Mapping[str, Any] | None = None) -> Rules:
    """The cached Rules for ``given`` options (validated)."""
    return _rules_cached(tuple(sorted(resolve(given).items())))
