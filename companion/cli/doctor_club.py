"""``binaryon doctor``'s club check: is the board's link to the club's broker up? One line,
from the running companion's own word (``J.club.json`` beside the journal), else whether the
broker answers at all."""

from __future__ import annotations

import json
from typing import Any

BROKER_FIX = (
    "start the club's broker (Debian: sudo apt install mosquitto, with a listener on the "
    "LAN: docs/club.md), or fix [club] broker in the config"
)


def club_checks(probe: Any, config: Any, service_state: str) -> list:
    """``probe``: doctor's Probe (pid_alive, web_answers: a TCP connection); ``service_state``
    the service's journal, looked at too when the config names none."""
    from companion.cli.doctor_check import INFO, MISSING, OK, Check
    from companion.core.broker_url import parse_broker_url
    from companion.service.app import club_state_file

    try:
        address = parse_broker_url(config.club.broker)
    except ValueError as e:
        return [Check("club", MISSING, f"club: {e}", "fix [club] broker in the config")]
    places = [club_state_file(config)]
    if not config.journal.path:
        places.append(probe.path(service_state + ".club.json"))
    for place in places:
        try:
            state = json.loads(place.read_text()) if place is not None else None
        except (OSError, ValueError):
            continue
        if isinstance(state, dict) and probe.pid_alive(int(state.get("pid", 0) or 0)):
            line = str(state.get("line", "club: state unknown"))
            if state.get("connected"):
                return [Check("club", OK, line)]
            return [Check("club", MISSING, line, BROKER_FIX)]
    if probe.web_answers(address.host, address.port):
        detail = f"club: the broker {address} answers (the companion is not running)"
        return [Check("club", INFO, detail)]
    return [Check("club", MISSING, f"club: broker unreachable at {address}", BROKER_FIX)]
