"""Latent Binaries (G. Lattanzio): hidden pawns under nests, refereed by the companion.

``engine`` holds the rules (with ``options``, ``moves``, ``board``, ``refusals``, the turn
``phases``, the ``nest``, the position ``queries`` and the 5x7 ``geometry``; ``masked`` and
``facts`` for a game across two boards, each holding its own player's secrets), ``views``
what each player may see, ``position`` the public position text and the ``legal`` command's
function, ``input`` and ``spec`` how the game is hosted (tests build states mid-game with
tests/games/latent_binaries/arrange.py). Rules as enforced: docs/rules/latent-binaries.md.
"""
