"""Damage on the simulated Pico's USB line, in both directions: noise and half lines injected,
whole lines lost, a bit flipped."""

from __future__ import annotations

import contextlib
import os


class WireDamage:
    """What ``SimulatedPico`` does to the byte streams (mixed into it): the controller asks for
    damage with the public methods, the firmware's pty port applies it through the hooks."""

    def inject_raw(self, data: bytes) -> None:
        """Write bytes towards the host as if the board had sent them (noise, half lines)."""
        with self._lock:
            if self._master >= 0:
                with contextlib.suppress(OSError):
                    os.write(self._master, data)

    def inject_to_board(self, data: bytes) -> None:
        """Bytes the firmware will read as if the host had sent them."""
        with self._lock:
            self._injected_input += data

    def drop_next_line(self, match: bytes | None = None) -> None:
        """Lose the next board line (containing ``match``, if given)."""
        with self._lock:
            self._drops.append(match)

    def drop_next_command(self, match: bytes | None = None) -> None:
        """Lose the next host -> board line (containing ``match``, if given)."""
        with self._lock:
            self._command_drops.append(match)

    def corrupt_next_line(self, match: bytes | None = None) -> None:
        """Flip one bit in the next board line (containing ``match``, if given)."""
        with self._lock:
            self._corrupts.append(match)

    def _take_injected_input(self) -> bytes:
        with self._lock:
            data, self._injected_input = self._injected_input, b""
        return data

    def _filter_incoming(self, data: bytes) -> bytes:
        """Drop a whole host line when asked to (drop_next_command)."""
        with self._lock:
            if not self._command_drops and not self._partial_in:
                return data
            data = self._partial_in + data
            lines = data.split(b"\n")
            self._partial_in = lines.pop()
            out = []
            for line in lines:
                for i, match in enumerate(self._command_drops):
                    if match is None or match in line:
                        del self._command_drops[i]
                        break
                else:
                    out.append(line + b"\n")
            return b"".join(out)

    def _filter_outgoing(self, data: bytes) -> bytes:
        with self._lock:
            for i, match in enumerate(self._drops):
                if match is None or match in data:
                    del self._drops[i]
                    return b""
            for i, match in enumerate(self._corrupts):
                if match is None or match in data:
                    del self._corrupts[i]
                    pos = max(0, len(data) // 2 - 1)
                    return data[:pos] + bytes([data[pos] ^ 0x01]) + data[pos + 1 :]
        return data
