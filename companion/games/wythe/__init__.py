"""Wythe: dominoes of one black and one white half stacked on a square board.

The rules engine is ``engine``; ``report`` gives the score and legal-move outputs and
``record`` reads the game's record tags. See docs/rules/wythe.md.
"""
