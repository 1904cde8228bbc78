"""Binøme (Igrology): the companion as the game's assistant, for 1 to 7 players.

engine.py holds the game state, resolution.py one turn's resolution, postulates.py the 16
conditions, deck.py the card points (deck.toml), solo.py the virtual opponents and
resolve_cli.py the ``binaryon binome resolve`` command.
"""
