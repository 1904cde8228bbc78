"""Board link firmware settings: the pin block and timings. Edit to match your wiring.

Pins are RP2040 GPIO numbers (GPn), not physical pin numbers of the Pico package; the Pico's
pads carry GP0..GP22 and GP26..GP28 (GP23, GP24, GP25 and GP29 are wired on the Pico itself).
Matrix: ROW_PINS[i] is rank i+1 (driven low one at a time), COL_PINS[j] is file a+j (input with
pull-up). Each sensor sits between its row and column with a diode, cathode to the row.
"""

SIZE = 8  # squares per side
KIND = "switch"  # "switch" (momentary, press/release), "presence" (reed) or "polarity" (hall)

ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7)  # GP0..GP7: ranks 1..8, outputs
COL_PINS = (8, 9, 10, 11, 12, 13, 14, 15)  # GP8..GP15: files a..h, inputs, pull-up
# Polarity (hall) boards only: the second sensor of each square (the one for a white-up disc),
# on its own columns sharing the rows. The first sensor (COL_PINS) is the black-up one.
COL_PINS_B = (16, 17, 18, 19, 20, 21, 22, 26)  # GP16..GP22, GP26

LED_PIN = 28  # GP28: data in of the WS2812B/SK6812 chain (through a 3.3->5 V level shifter)
LED_SERPENTINE = False  # True if the chain snakes: every other rank runs h..a
BRIGHTNESS = 64  # 0..255, scales every LED; the host may change it
# The 5 V supply of the LED chain, in amperes. The firmware keeps the chain's estimated draw
# under 90 % of it whatever the host sends (see hardware/README.md, "Power budget").
LED_SUPPLY_AMPS = 2.0

DEBOUNCE_MS = 20  # a change counts once stable this long
SNAPSHOT_MS = 1000  # full snapshot period (also a heartbeat)
WATCHDOG_MS = 2000  # restart if the loop stalls this long: 1000..8388 (RP2040 max), 0 = off
ROW_SETTLE_US = 10  # wait after driving a row before reading the columns (switches, reeds)
# Polarity (hall) boards: the row also switches the hall sensors' supply on, and their output
# is valid only after their power-on time; at least 50.
HALL_SETTLE_US = 100
FAST_IO = True  # read all columns with one register read per row
# After repeated errors the firmware restarts, waiting this long first, twice as long at each
# restart in a row; the fifth failure in a row leaves it in safe mode (it says why to the host).
RESTART_BACKOFF_MS = 1000
