"""Engines that play the two-player board games: a shared alpha-beta search (search.py), one
adapter per game (move generation, evaluation, position key), simple players, a solver."""
