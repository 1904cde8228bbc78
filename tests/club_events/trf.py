"""A small reader of FIDE's tournament report files (TRF-16, Handbook C.04 Annex 2): the
player lines (``001``) as starting rank -> rounds of (opponent or None, colour, result
character). Enough for the published tournaments these tests replay."""

from __future__ import annotations


def read_trf(text: str) -> dict[int, list[tuple[int | None, str, str]]]:
    players: dict[int, list[tuple[int | None, str, str]]] = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        rounds = []
        at = 91
        while at + 8 <= len(line.rstrip()) + 1:
            cell = line[at : at + 10]
            opp, colour, res = cell[:4].strip(), cell[5:6], cell[7:8]
            rounds.append((int(opp) if opp and opp != "0000" and int(opp) else None, colour, res))
            at += 10
        players[number] = rounds
    return players


def points(res: str) -> float:
    return {"1": 1.0, "+": 1.0, "U": 1.0, "F": 1.0, "=": 0.5, "H": 0.5}.get(res, 0.0)


def trf_text(name: str) -> str:
    """A published tournament kept beside this module (its source is named where it is used)."""
    from pathlib import Path

    return (Path(__file__).parent / name).read_text(encoding="utf-8")
