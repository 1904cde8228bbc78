"""Board link firmware for the Binaryon sensor board (Raspberry Pi Pico, MicroPython)."""
