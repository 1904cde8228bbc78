"""Engines that play the two-player board games: a shared alpha-beta search (search.py) over
each game's own adapter (``GameSpec.engine()``, in the game's folder), simple players, a
solver, matches, and a suggested move's one-line reason (explain.py). Nothing here knows a
game's rules or names one."""
