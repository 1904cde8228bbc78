"""Simulated hardware, a feature of the companion itself (``binaryon sim``, ``run`` with no
board): the mock board and its LEDs, and a Pico running the real firmware under CPython."""
