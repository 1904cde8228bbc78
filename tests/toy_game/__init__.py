"""Noughts, a test game with everything a game can bring: engine play (the opponent, the
menu's engine hint, ``bestmove``, ``solve``, ``match``), its own hints, the position and record
commands (``legal``, ``score``), an extra command, and its pages. It lives in this one folder
and is added with one ``companion.games.register`` call (``tests/games/test_toy_game.py``)."""
