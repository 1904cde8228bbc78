"""What the CLI, OLED and table page say about a Wythe position: the score as JSON or words,
the legal moves as JSON, and one short line saying who leads and why. Pure functions of a state.
"""

from __future__ import annotations

from typing import Any

from ...core.squares import orthogonal_groups
from .engine import WytheState
from .moves import BLACK, PLAYERS, WHITE, Placement, other
from .scoring import Score, count_word, reason_line, score_masks


def _groups_json(groups: dict[int, int]) -> dict[str, int]:
    return {str(size): count for size, count in sorted(groups.items())}


def score_json(state: WytheState) -> dict[str, Any]:
    """``{"game": "wythe", "black": {"score": S, "groups": {"<size>": count}}, "white": {...},
    "winner": "black" | "white" | None}`` for the position as it stands, finished or not.
    ``winner`` is who wins if the game ended here (the 0-0 rule included), None before any
    placement."""
    sc = state.score()
    return {
        "game": state.game,
        BLACK: {"score": sc.black, "groups": _groups_json(sc.black_groups)},
        WHITE: {"score": sc.white, "groups": _groups_json(sc.white_groups)},
        "winner": sc.leader,
    }


def diagram_score(cells: list[str], n: int) -> Score:
    """The score of a diagram's top colours (``x`` Black on top, ``o`` White): a diagram
    does not say who placed last, so 0-0 decides nobody."""
    black = sum(1 << i for i, c in enumerate(cells) if c == "x")
    white = sum(1 << i for i, c in enumerate(cells) if c == "o")
    return score_masks(black, white, n, None)


def diagram_json(sc: Score) -> dict[str, Any]:
    """``score_json`` of a diagram (``diagram_score``): ``winner`` None at 0-0."""
    return {
        "game": "wythe",
        BLACK: {"score": sc.black, "groups": _groups_json(sc.black_groups)},
        WHITE: {"score": sc.white, "groups": _groups_json(sc.white_groups)},
        "winner": sc.leader,
    }


def diagram_text(sc: Score) -> str:
    """``score_text`` of a diagram: the group table, each score with its reason, who leads."""
    lines = [f"{p.capitalize()}: {groups_words(sc.groups(p))}" for p in PLAYERS]
    lines += [_score_words(sc, p) for p in PLAYERS]
    if sc.leader is None:
        lines.append("0-0: the player who placed last loses (a diagram does not say who).")
    else:
        who = sc.leader.capitalize()
        lines.append(f"{who} leads {sc.of(sc.leader)}-{sc.of(other(sc.leader))}.")
    return "\n".join(lines) + "\n"


def legal_json(state: WytheState) -> dict[str, list[str]]:
    """``{"moves": [...]}``: every legal action of the side to move, placements in square order
    (black half, then white half), then ``swap`` when allowed; ``["pass"]`` when no placement
    exists; ``[]`` once the game is over."""
    moves = state.legal_moves()
    placements = sorted(m for m in moves if isinstance(m, Placement))
    rest = [m for m in moves if not isinstance(m, Placement)]
    return {"moves": [m.name for m in [*placements, *rest]]}


def groups_words(groups: dict[int, int]) -> str:
    """'three groups of 5, one of 3, two of 1' (largest size first); 'no groups'."""
    if not groups:
        return "no groups"
    parts = []
    for k, (size, count) in enumerate(sorted(groups.items(), reverse=True)):
        noun = ("group" if count == 1 else "groups") if k == 0 else ""
        parts.append(" ".join(w for w in (count_word(count), noun, f"of {size}") if w))
    return ", ".join(parts)


def _score_words(sc: Score, player: str) -> str:
    name, rival = player.capitalize(), other(player).capitalize()
    s = sc.of(player)
    if s == 0:
        return f"{name} scores 0: no size where {name} has more groups."
    mine = sc.groups(player).get(s, 0)
    theirs = sc.groups(other(player)).get(s, 0)
    noun = "group" if mine == 1 else "groups"
    return f"{name} scores {s}: {count_word(mine)} {noun} of {s} to {rival}'s {count_word(theirs)}."


def score_text(state: WytheState) -> str:
    """The group table in words, each score with its reason, and who leads (or won) and why."""
    sc = state.score()
    lines = [f"{p.capitalize()}: {groups_words(sc.groups(p))}" for p in PLAYERS]
    lines += [_score_words(sc, p) for p in PLAYERS]
    lines.append(result_sentence(state, sc))
    return "\n".join(lines)


def result_sentence(state: WytheState, sc: Score | None = None) -> str:
    sc = sc or state.score()
    if sc.leader is None:
        return "No piece placed yet."
    verb = "wins" if state.is_over() else "leads"
    who = sc.leader.capitalize()
    if sc.reason == "last-mover":
        loser = other(sc.leader).capitalize()
        return f"0-0: {loser} made the last placement, so {who} {verb}."
    return f"{who} {verb} {sc.of(sc.leader)}-{sc.of(other(sc.leader))}."  # the leader's first


def lead_line(state: WytheState) -> str:
    """Who leads and why, in at most two OLED lines: 'Black 5: three groups of 5 to two'."""
    return reason_line(state.score())


def group_squares(mask: int, n: int) -> list[list[int]]:
    """The orthogonally connected groups of the squares in ``mask``, each sorted, by lowest
    square."""
    return orthogonal_groups((s for s in range(n * n) if mask >> s & 1), n)


def deciding_groups(state: WytheState, player: str) -> list[list[int]]:
    """The player's groups of the size that makes their score (for the hint button and the
    end of the game); [] when they score 0."""
    s = state.score().of(player)
    if not s:
        return []
    mask = state.black_tops if player == BLACK else state.white_tops
    return [g for g in group_squares(mask, state.n) if len(g) == s]


def turn_note(state: WytheState) -> str:
    """What the side to move may do, for the display: 'White: place or swap' on White's first
    turn, 'Black must pass' when no piece fits, '' otherwise (and once the game is over)."""
    turn = state.turn
    if turn is None:
        return ""
    if state.swap_allowed():
        return f"{turn.capitalize()}: place or swap"
    if not state.has_placement():
        return f"{turn.capitalize()} must pass"
    return ""


def score_row(state: WytheState, player: str) -> str:
    """One player's score and groups for a narrow display: '5  5x3 3x1 1x4' (size x count,
    largest first)."""
    sc = state.score()
    groups = " ".join(f"{s}x{c}" for s, c in sorted(sc.groups(player).items(), reverse=True))
    return f"{sc.of(player)}  {groups}".rstrip()


__all__ = [
    "deciding_groups",
    "group_squares",
    "turn_note",
    "groups_words",
    "lead_line",
    "legal_json",
    "result_sentence",
    "score_json",
    "score_row",
    "score_text",
]
