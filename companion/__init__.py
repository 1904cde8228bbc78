"""Binaryon companion: referee, scorer and journal for games played on an 8x8 sensor board.

Importing this package must stay cheap and must never touch Pi-only modules (RPi.GPIO, lgpio):
hardware drivers are imported lazily by the code that chooses them.
"""

__version__ = "0.1.0"
