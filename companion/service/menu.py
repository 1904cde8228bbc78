"""The new-game menu on the buttons: hold menu to open it, menu steps through the games,
confirm starts the chosen one, undo closes it. Extra entries (the players' pages) come last."""

from __future__ import annotations


class NewGameMenu:
    def __init__(self, games: list[str]):
        self.games = tuple(games)
        self.entries = self.games
        self.index: int | None = None  # None: closed

    @property
    def is_open(self) -> bool:
        return self.index is not None

    def open(self, current: str, extra: tuple[str, ...] = ()) -> None:
        self.entries = self.games + extra
        self.index = self.games.index(current) if current in self.games else 0

    def close(self) -> None:
        self.index = None

    def step(self) -> None:
        assert self.index is not None
        self.index = (self.index + 1) % len(self.entries)

    @property
    def chosen(self) -> str:
        assert self.index is not None
        return self.entries[self.index]

    def shown(self) -> tuple[tuple[str, ...], int] | None:
        return None if self.index is None else (self.entries, self.index)
