"""The kinds of sensor a square can have, and what each reads with nothing on it.

Readings are strings so every kind fits one shape: switch "1"/"0" (pressed/released),
presence "1"/"0" (occupied/empty), polarity "x"/"o"/"." (black up / white up / no disc).
"""

from __future__ import annotations

SENSOR_KINDS = ("switch", "presence", "polarity")
# What a square reads with nothing on or pressing it, by sensor kind.
IDLE_READING = {"switch": "0", "presence": "0", "polarity": "."}
