"""The electrical model of the simulated Pico's key matrix: the firmware drives a row low and
reads the columns, and a closed sensor (with its diode) pulls its column low only on the driven
row."""

from __future__ import annotations


class KeyMatrixModel:
    """Pin levels for ``SimulatedPico`` (mixed into it; the MicroPython stand-ins call these
    from the firmware's thread)."""

    def _pin_write(self, pin: int, value: int) -> None:
        self._out[pin] = value

    def _column_level(self, col: int, plane: str) -> int:
        """Pull-up high unless a driven (low) row has a closed sensor on this column."""
        n = self.size
        closed = ("1", "x") if plane == "a" else ("o",)
        values = self._values
        for pin, r in self._rows.items():
            if self._out.get(pin, 1) == 0 and values[r * n + col] in closed:
                return 0
        return 1

    def _pin_read(self, pin: int) -> int:
        with self._lock:
            if pin in self._cols_a:
                return self._column_level(self._cols_a[pin], "a")
            if self.kind == "polarity" and pin in self._cols_b:
                return self._column_level(self._cols_b[pin], "b")
            return self._out.get(pin, 1)

    def _gpio_in(self) -> int:
        """The RP2040 SIO input register: every GPIO level in one word."""
        with self._lock:
            n, values = self.size, self._values
            driven = [r for pin, r in self._rows.items() if self._out.get(pin, 1) == 0]
            word = (1 << 30) - 1
            for pin, level in self._out.items():
                if pin < 30 and not level:
                    word &= ~(1 << pin)
            planes = [(self._cols_a, ("1", "x"))]
            if self.kind == "polarity":
                planes.append((self._cols_b, ("o",)))
            for cols, closed in planes:
                for pin, c in cols.items():
                    if pin < 30 and any(values[r * n + c] in closed for r in driven):
                        word &= ~(1 << pin)
            return word
