"""What the voice says for a game's events, in the words a person uses at a table: a move
("white a5 to b5"), a refusal with its reason, a pass, whose turn, the clock, the result with
its reason, squares to put back, and the answers to "read rank 3", "where can I move" and "what
changed". Pure. Everything comes from what the table page shows: moves by their public names,
the public ``View``, the game's own public words (``GameSpec.spoken``, ``announce``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.games.base import GameSpec, GameState, Move, Outcome, Refusal

PIECES = {"x": "black", "o": "white"}
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

# what each [voice] speak level says: "moves" the game's course, "all" also the answers
MOVES_KINDS = frozenset({"move", "refusal", "result", "clock", "fix", "opponent"})


def worth_saying(speak: str, kind: str) -> bool:
    """Does the ``speak`` level ("off", "moves", "all") say a line of ``kind``?"""
    return speak == "all" or (speak == "moves" and kind in MOVES_KINDS)


def listing(items: Sequence[str]) -> str:
    """'c2', 'c2 and d3', 'c2, d3 and e4'."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def who(spec: GameSpec, player: str | None) -> str:
    return spec.player_label(player).lower() if player else ""


def name_words(public: str) -> str:
    """A move's public name as it is said: 'a5-b5' -> 'a5 to b5', 'c2 d3' -> 'c2 and d3'."""
    words = public.replace("-", " to ").split()
    if len(words) > 1 and all(_is_square(w) for w in words):
        return listing(words)
    return " ".join(words)


def _is_square(word: str) -> bool:
    return len(word) >= 2 and word[0].isalpha() and word[1:].isdigit()


def move_words(spec: GameSpec, before: GameState, move: Move, after: GameState) -> str:
    """A move as the table hears it, with what the game announces after it and the result
    when it ended the game."""
    own = spec.spoken(before, move, after)
    if own:
        return own
    player = before.actor(move)
    label = who(spec, player)
    if move.is_pass:
        line = f"{label} passes." if label else "Pass."
    else:
        said = name_words(before.public_name(move))
        if player and said.split()[:1] == [player]:
            said = " ".join(said.split()[1:])  # a name that starts with its player
        line = f"{label} {said}." if label else f"{said}."
    lines = [line, spec.announce(before, after)]
    if after.is_over() and not before.is_over():
        outcome = after.outcome()
        if outcome is not None:
            lines.append(result_words(outcome))
    return " ".join(_sentence(x) for x in lines if x)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def refusal_words(refusal: Refusal) -> str:
    """'No: e4 is not in line with d5.'"""
    return _sentence(f"No: {refusal.reason}")


def turn_words(spec: GameSpec, state: GameState) -> str:
    """Whose turn it is, or who the game waits for."""
    if state.is_over():
        outcome = state.outcome()
        return result_words(outcome) if outcome is not None else "The game is over."
    acting = sorted(state.to_act)
    if len(acting) == 1:
        return f"{who(spec, acting[0])} to play."
    if acting:
        return f"Waiting for {listing([who(spec, p) for p in acting])}."
    return "The referee's step."


def clock_words(spec: GameSpec, player: str, seconds: int) -> str:
    """The running clock's warning: 'ten seconds, black.'"""
    n = NUMBERS[seconds] if 0 <= seconds < len(NUMBERS) else str(seconds)
    return f"{n} second{'s' if seconds != 1 else ''}, {who(spec, player)}."


def time_words(spec: GameSpec, left: dict[str, float]) -> str:
    """Each player's time left: 'black 4 minutes 12, white 52 seconds.'"""
    parts = []
    for player, seconds in left.items():
        m, s = divmod(max(0, int(seconds)), 60)
        amount = f"{m} minute{'s' if m != 1 else ''} {s}" if m else f"{s} seconds"
        parts.append(f"{who(spec, player)} {amount}")
    return _sentence(", ".join(parts))


def result_words(outcome: Outcome) -> str:
    """'BLACK wins 32-20: one group of 10 to none.' as said."""
    summary = outcome.summary or "The game is over"
    text = f"{summary}, {outcome.reason}" if outcome.reason else summary
    return _sentence(text.replace("-", " to ") if _is_score(summary) else text)


def _is_score(summary: str) -> bool:
    last = summary.split()[-1] if summary.split() else ""
    a, _, b = last.partition("-")
    return a.isdigit() and b.isdigit()


def fix_words(squares: Iterable[str]) -> str:
    """The squares where the board differs from the game."""
    names = list(squares)
    return f"Put back {listing(names)}." if names else ""


def cell_words(piece: str, text: str = "") -> str:
    name = PIECES.get(piece, piece)
    return f"{name} {text}".strip() if name else ""


def rank_words(spec: GameSpec, state: GameState, options: dict[str, Any], rank: int) -> str:
    """'Rank 3: a3 black, c3 white; the rest empty.' from the public view."""
    layout = spec.layout(options)
    if layout is None or not 1 <= rank <= layout.ranks:
        return "There is no such rank."
    cells = spec.view(state, None).cells
    said = []
    for file in range(layout.files):
        cell = (rank - 1) * layout.files + file
        if cell < len(cells) and (what := cell_words(cells[cell].piece, cells[cell].text)):
            said.append(f"{spec.cell_name(cell, options)} {what}")
    if not said:
        return f"Rank {rank} is empty."
    rest = "; the rest empty" if len(said) < layout.files else ""
    return f"Rank {rank}: {', '.join(said)}{rest}."


def moves_words(spec: GameSpec, state: GameState, player: str | None, most: int = 12) -> str:
    """'Where can I move': the legal moves by their public names, the first ``most`` of them."""
    if state.is_over():
        return "The game is over."
    names = list(dict.fromkeys(state.public_name(m) for m in state.legal_moves(player)))
    if not names:
        return "No move."
    said = [name_words(n) for n in names[:most]]
    more = f", and {len(names) - most} more" if len(names) > most else ""
    return f"{len(names)} move{'s' if len(names) != 1 else ''}: {', '.join(said)}{more}."


def changed_words(
    spec: GameSpec, before: GameState, after: GameState, options: dict[str, Any]
) -> str:
    """'What changed': the cells whose public view differs between two states."""
    old, new = spec.view(before, None).cells, spec.view(after, None).cells
    said = []
    for cell, (a, b) in enumerate(zip(old, new, strict=False)):
        if (a.piece, a.text) != (b.piece, b.text):
            now = cell_words(b.piece, b.text) or "empty"
            said.append(f"{spec.cell_name(cell, options)} now {now}")
    return _sentence(", ".join(said)) if said else "Nothing changed."
