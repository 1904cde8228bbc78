"""What can be said to the companion: a JSGF grammar for the game and its state (``Context``),
and the command a recognised line stands for. Pure; the recogniser is ``listener``."""

from __future__ import annotations

from dataclasses import dataclass

DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
DIGIT_OF = {word: i for i, word in enumerate(DIGITS)} | {"oh": 0}

# command -> what is said for it (several ways to say some)
PHRASES: dict[str, tuple[str, ...]] = {
    "repeat": ("say that again", "repeat"),
    "score": ("what is the score",),
    "turn": ("whose turn is it",),
    "help": ("help",),
    "hint": ("give me a hint",),
    "undo": ("undo",),
    "new game": ("start a new game",),
    "menu": ("open the menu",),
    "time": ("how much time",),
    "pause": ("pause the clock",),
    "resume": ("resume the clock",),
    "next": ("next step",),
    "pass": ("i pass",),
    "moves": ("where can i move",),
    "changed": ("what changed",),
    "yes": ("yes",),
    "no": ("no",),
}


@dataclass(frozen=True)
class Context:
    """What the game and its state let a player ask."""

    ranks: int = 0  # the board's ranks ("read rank 3", "where can i move"); 0: no board
    numbers: bool = False  # "i claim", pass, and "claim" with a two-digit number (a sheet)
    next: bool = False  # "next": the chair's step goes on
    clock: bool = False  # a game clock: time, pause, resume
    confirm: bool = False  # a yes or no is awaited (undo)
    pass_move: bool = False  # "pass" is a move


@dataclass(frozen=True)
class Command:
    name: str  # a key of PHRASES, "claim" or "rank"
    number: int | None = None  # claim: 0..99; rank: 1..ranks

    def __str__(self) -> str:
        if self.name == "claim":
            return "claim" if self.number is None else f"claim {self.number:02d}"
        if self.name == "rank":
            return f"read rank {self.number}"
        return self.name


def commands(ctx: Context) -> list[str]:
    """The command names the context allows."""
    out = ["repeat", "score", "turn", "help", "hint", "undo", "new game", "menu"]
    if ctx.clock:
        out += ["time", "pause", "resume"]
    if ctx.next:
        out.append("next")
    if ctx.numbers or ctx.pass_move:
        out.append("pass")
    if ctx.ranks:
        out += ["moves", "changed"]
    if ctx.confirm:
        out += ["yes", "no"]
    return out


def jsgf(ctx: Context, wake: str = "") -> str:
    """The grammar: ``wake <command>`` (``<command>`` alone for push-to-talk)."""
    alts = [p for name in commands(ctx) for p in PHRASES[name]]
    digit = " | ".join((*DIGITS, "oh"))
    if ctx.numbers:
        alts += ["i claim", "claim <digit> <digit>"]
    if ctx.ranks:
        alts.append("read rank <rank>")
    rank = " | ".join(DIGITS[1 : min(ctx.ranks, 9) + 1]) or "one"
    lead = f"{wake} " if wake else ""
    return (
        "#JSGF V1.0;\ngrammar companion;\n"
        f"public <line> = {lead}<command>;\n"
        f"<command> = {' | '.join(alts)};\n"
        f"<digit> = {digit};\n<rank> = {rank};\n"
    )


def command_of(line: str, ctx: Context, wake: str = "") -> Command | None:
    """The command a recognised line stands for (None: not a command of this context)."""
    words = line.split()
    if wake:
        w = wake.split()
        if words[: len(w)] != w:
            return None
        words = words[len(w) :]
    said = " ".join(words)
    for name in commands(ctx):
        if said in PHRASES[name]:
            return Command(name)
    if ctx.numbers and said == "i claim":
        return Command("claim")
    claim = len(words) == 3 and words[0] == "claim"
    if ctx.numbers and claim and all(w in DIGIT_OF for w in words[1:]):
        return Command("claim", DIGIT_OF[words[1]] * 10 + DIGIT_OF[words[2]])
    if ctx.ranks and len(words) == 3 and words[:2] == ["read", "rank"]:
        n = DIGIT_OF.get(words[2], 0)
        if 1 <= n <= ctx.ranks:
            return Command("rank", n)
    return None


def spoken(command: Command, wake: str = "") -> str:
    """What a person says for ``command`` (its first phrase): the round trip's text."""
    if command.name == "claim" and command.number is None:
        body = "i claim"
    elif command.name == "claim":
        n = command.number
        body = f"claim {DIGITS[n // 10]} {DIGITS[n % 10]}"
    elif command.name == "rank":
        body = f"read rank {DIGITS[command.number or 0]}"
    else:
        body = PHRASES[command.name][0]
    return f"{wake} {body}" if wake else body


def every_command(ctx: Context) -> list[Command]:
    """One of each command the context allows (claims: a few numbers; ranks: each)."""
    out = [Command(name) for name in commands(ctx)]
    if ctx.numbers:
        out += [Command("claim"), *(Command("claim", n) for n in (5, 42, 69, 90))]
    out += [Command("rank", n) for n in range(1, min(ctx.ranks, 9) + 1)]
    return out
