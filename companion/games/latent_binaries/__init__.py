"""Latent Binaries (G. Lattanzio): hidden pawns under nests, refereed by the companion.

``engine`` holds the rules, ``geometry`` the 5x7 frame, ``views`` what each player may see,
``position`` the public position text and the ``legal`` command's function.
"""
