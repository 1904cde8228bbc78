"""The engine's levels by name: what a config or a command line may say, known without
loading the search (a daemon that never asks the engine never imports it)."""

from __future__ import annotations

from typing import Final

LEVELS: Final = ("novice", "beginner", "casual", "default", "strongest")
