"""Rule options: a game's named choices, as ``--rule name=value`` on the command line and
``[rules.<game>] name = value`` in the config, each checked with a one-line reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """A named rule option: ``--rule name=value`` and a config key (``[rules.GAME] name``)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    kind: type = str
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], str | None] | None = None  # extra check -> error text or None
    # the value names a file on this machine: from the network (a club's pairing) only one
    # of these built-in names, which all mean the file the package ships ('' too)
    builtins: tuple[str, ...] | None = None

    def parse(self, value: Any) -> Any:
        """Convert and validate a value from the CLI (str) or TOML; ValueError names the option."""
        v = value
        if self.kind is bool and isinstance(v, str):
            low = v.strip().lower()
            if low not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise ValueError(f"{self.name}: expected true or false, got {value!r}")
            v = low in ("true", "yes", "on", "1")
        elif self.kind is int and isinstance(v, str):
            try:
                v = int(v)
            except ValueError:
                raise ValueError(f"{self.name}: expected a whole number, got {value!r}") from None
        if self.kind is bool and not isinstance(v, bool):
            raise ValueError(f"{self.name}: expected true or false, got {value!r}")
        if self.kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise ValueError(f"{self.name}: expected a whole number, got {value!r}")
        if self.kind is str and not isinstance(v, str):
            raise ValueError(f"{self.name}: expected text, got {value!r}")
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and v < self.minimum:
            raise ValueError(f"{self.name}: {v} is below {self.minimum}")
        if self.maximum is not None and v > self.maximum:
            raise ValueError(f"{self.name}: {v} is above {self.maximum}")
        if self.check is not None and (err := self.check(v)):
            raise ValueError(f"{self.name}: {err}")
        return v


def resolve_options(options: Sequence[Option], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown names and bad values raise ValueError."""
    known = {o.name: o for o in options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"unknown rule option {unknown[0]!r} (known: {', '.join(known)})")
    out = {o.name: o.default for o in options}
    for name, value in given.items():
        out[name] = known[name].parse(value)
    return out


def parse_pairs(items: Sequence[str], flag: str) -> dict[str, str]:
    """``["a=1", "b=2"]`` -> ``{"a": "1", "b": "2"}``; ValueError naming the bad item."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"{flag} {item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def rule_pairs(items: Sequence[str], flag: str = "--rule") -> dict[str, str]:
    """``NAME=VALUE`` items as option name -> text value (``empty-joins`` -> ``empty_joins``);
    ValueError names ``flag`` and the bad item."""
    return {k.lower().replace("-", "_"): v for k, v in parse_pairs(items, flag).items()}
