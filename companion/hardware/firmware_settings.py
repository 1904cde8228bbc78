"""The Pico's config.py made from the companion's config: the shipped firmware/config.py (its
comments and defaults) followed by the values the companion's config sets, checked by the
firmware's own ``config_problem`` before anything is copied."""

from __future__ import annotations

import runpy
import types
from pathlib import Path
from typing import Any

from companion.core.config import Config

HEADER = "# --- from {source} (binaryon firmware install): these win over the lines above ---\n"


class FirmwareSettingsError(ValueError):
    """A setting the firmware would refuse, as one line for the user."""


def shipped_values(firmware: Path) -> dict[str, Any]:
    """The settings of the shipped config.py (upper-case names only)."""
    return {k: v for k, v in runpy.run_path(str(firmware / "config.py")).items() if k.isupper()}


def settings(config: Config, firmware: Path) -> dict[str, Any]:
    """The firmware settings the companion's config decides, in config.py's names."""
    shipped = shipped_values(firmware)
    b, f = config.board, config.firmware
    n = b.size

    def pins(given: tuple[int, ...], name: str) -> tuple[int, ...]:
        return tuple(given) if given else tuple(shipped[name][:n])

    out: dict[str, Any] = {
        "SIZE": n,
        "KIND": b.kind,
        "ROW_PINS": pins(f.rows, "ROW_PINS"),
        "COL_PINS": pins(f.cols, "COL_PINS"),
        "COL_PINS_B": pins(f.cols_b, "COL_PINS_B"),
        "LED_PIN": f.led_pin if f.led_pin >= 0 else shipped["LED_PIN"],
        "LED_SERPENTINE": f.led_serpentine,
        "BRIGHTNESS": round(config.leds.brightness * 255),
        "DEBOUNCE_MS": max(1, b.debounce_ms),
    }
    if f.led_supply_amps:
        out["LED_SUPPLY_AMPS"] = f.led_supply_amps
    if f.watchdog_ms >= 0:
        out["WATCHDOG_MS"] = f.watchdog_ms
    if f.hall_settle_us:
        out["HALL_SETTLE_US"] = f.hall_settle_us
    return out


def config_text(config: Config, firmware: Path, source: str) -> str:
    """The whole config.py for the Pico. Raises FirmwareSettingsError when the firmware would
    refuse it (a pin it does not have, one used twice...)."""
    values = settings(config, firmware)
    merged = {**shipped_values(firmware), **values}
    problem = _firmware_check(types.SimpleNamespace(**merged))
    if problem is not None:
        raise FirmwareSettingsError(f"the Pico would refuse this config.py: {problem}")
    text = (firmware / "config.py").read_text()
    lines = "".join(f"{k} = {v!r}\n" for k, v in values.items())
    return text.rstrip("\n") + "\n\n" + HEADER.format(source=source) + lines


def _firmware_check(cfg: types.SimpleNamespace) -> str | None:
    from companion.hardware.simulated.pico_firmware import load_firmware

    return load_firmware().config_problem(cfg)
