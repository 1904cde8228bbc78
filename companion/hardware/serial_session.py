"""The line protocol session with the sensor board (docs/protocol.md): the handshake, sequence
numbers, getting a lost line sent again (RESEND, then a snapshot), and board lines turned into
events."""

from __future__ import annotations

import logging
import time

from companion.core.events import BoardSnapshot, LinkStatus, SquareReading
from companion.hardware import link_protocol as lp

# The board link logs under one name, whichever of its modules writes the line.
log = logging.getLogger("companion.hardware.serial_board")


class BoardLineSession:
    """Handling of the lines that come from the board, for ``SerialBoard`` (mixed into it; the
    reader thread calls ``_handle`` for each whole line)."""

    def _handle(self, line: bytes, now: float) -> None:
        msg = lp.parse_board_line(line)
        if msg is None:
            if line.strip(b"\r\n\x00 "):
                self.stats["bad_lines"] += 1
                log.debug("garbled line ignored: %r", line[:80])
            return
        self._last_rx = now
        self.stats["lines"] += 1
        if isinstance(msg, lp.Hello):
            self._on_hello(msg)
            return
        if isinstance(msg, lp.Safe):
            self._on_safe(msg)
            return
        if self._state != "up":
            self.stats["before_handshake"] += 1
            return
        if isinstance(msg, lp.BoardError) and msg.code == "resend":
            self._resync("replay impossible")  # out of sequence by nature: handled first
            return
        if self._expect is not None and msg.seq != self._expect:
            self.stats["out_of_order"] += 1
            if self._gap_at is None:
                self.stats["gaps"] += 1
                log.info("sequence gap: expected %02x, got %02x", self._expect, msg.seq)
                self._gap_tries = 0
                self._ask_resend(now)
            return
        self._expect = (msg.seq + 1) % lp.SEQ_MOD
        if self._gap_at is not None:  # the replay has started: confirm with a snapshot
            self._gap_at = None
            self.stats["recovered"] += 1
            self._write(lp.cmd_snapshot())
        self._dispatch(msg, now)

    def _ask_resend(self, now: float) -> None:
        self._gap_at = now
        self._gap_tries += 1
        self._write(lp.cmd_resend(self._expect or 0))

    def _resync(self, why: str) -> None:
        """Give up on replaying: accept the stream from here and rebuild from a snapshot."""
        log.info("resync from snapshot (%s)", why)
        self.stats["resyncs"] += 1
        self._gap_at = None
        self._expect = None
        self._write(lp.cmd_snapshot())

    def _on_safe(self, msg: lp.Safe) -> None:
        """The board stopped after repeated errors (or waits to restart): no play, one line
        saying why (the board repeats it about once a second; it is logged when it changes)."""
        self.stats["safe_lines"] += 1
        detail = f"board safe mode: {msg.reason}" if msg.reason else "board safe mode"
        if self._announced != detail:
            log.warning("%s", detail)
        if self._state != "safe":
            self._leds.on_disconnect()
        self._state = "safe"
        self._expect = None
        self._gap_at = None
        self._down(detail)
        self._first_attempt.set()

    def _on_hello(self, msg: lp.Hello) -> None:
        if msg.proto != lp.PROTO or msg.size != self.expected_size:
            why = (
                f"board speaks protocol {msg.proto}, this host {lp.PROTO}"
                if msg.proto != lp.PROTO
                else f"board is {msg.size}x{msg.size}, expected {self.expected_size}x"
                f"{self.expected_size}"
            )
            self._close()
            self._down(why)
            self._first_attempt.set()
            self._stopping.wait(self.retry_max)
            return
        boot = msg.fields.get("boot")
        if self._state == "up" and boot is not None and boot == self._boot_id:
            # The same boot answering our HELLO again: just follow its sequence numbers.
            self._expect = (msg.seq + 1) % lp.SEQ_MOD
            self._gap_at = None
            return
        self._boot_id = boot
        restarted = self._state == "up"
        if restarted:
            self.stats["board_restarts"] += 1
        self.kind, self.size, self.firmware = msg.kind, msg.size, msg.fw
        self._expect = (msg.seq + 1) % lp.SEQ_MOD
        self._gap_at = None
        self._known = None
        self._first_snapshot = True
        self._state = "up"
        self._last_rx = time.monotonic()
        detail = f"Pico fw {msg.fw}, {msg.size}x{msg.size} {msg.kind}"
        self._announced = detail + (" (restarted)" if restarted else "")
        log.info("board boot %s, reset: %s", boot, msg.fields.get("reset", "?"))
        self.last_error = None
        self._post(LinkStatus(True, self._announced))
        if self.brightness is not None:
            self._write(lp.cmd_brightness(self._leds.next_id(), self.brightness))
        if self.debounce_ms is not None:
            self._write(lp.cmd_debounce(self._leds.next_id(), self.debounce_ms))
        self._leds.on_connect()
        self._first_attempt.set()

    def _dispatch(self, msg: lp.BoardMessage, now: float) -> None:
        n2 = self.size * self.size
        valid = lp.VALUE_CHARS[self.kind]
        if isinstance(msg, lp.Change):
            if msg.square >= n2 or msg.value not in valid:
                self.stats["bad_values"] += 1
                return
            if self._known is not None:
                if self._known[msg.square] == msg.value:
                    self.stats["repeats"] += 1
                    return
                self._known[msg.square] = msg.value
            self._post(SquareReading(msg.square, msg.value, now, debounced=True))
        elif isinstance(msg, lp.Snapshot):
            if len(msg.values) != n2 or set(msg.values) - set(valid):
                self.stats["bad_values"] += 1
                return
            if self._known is not None and not self._first_snapshot:
                for sq, (old, new) in enumerate(zip(self._known, msg.values, strict=True)):
                    if old != new:  # a change the events did not tell us
                        self.stats["snapshot_fixes"] += 1
                        self._post(SquareReading(sq, new, now, debounced=True))
            self._known = list(msg.values)
            self._first_snapshot = False
            self.stats["snapshots"] += 1
            self._post(BoardSnapshot(tuple(msg.values), now))
        elif isinstance(msg, lp.Ack):
            self._leds.on_ack(msg.id, now)
        elif isinstance(msg, lp.BoardError):
            self.stats["board_errors"] += msg.count
            if msg.count > 1:  # a summary of repeats: the first one was reported already
                log.warning("board reports %s %d more times", msg.code, msg.count)
            else:
                self.last_error = f"board: {msg.code} {msg.detail}".strip()
                log.warning("board reports %s %s", msg.code, msg.detail)
            self._leds.on_board_error()
        elif isinstance(msg, lp.Unknown):
            self.stats["unknown"] += 1
