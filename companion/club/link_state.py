"""The club link's state in one line (``club: connected to HOST``, ``club: broker
unreachable, 3 queued``) for the OLED, the menu and ``binaryon doctor``, which reads it from a
small file beside the journal (``J.club.json``) while the companion runs."""

from __future__ import annotations

import json
import logging
import os
from contextlib import suppress
from pathlib import Path

from companion import PROGRAM

log = logging.getLogger(PROGRAM)


class LinkState:
    def __init__(self, host: str, path: Path | None = None):
        self.host = host
        self.path = path
        self.connected = False
        self.queued = 0
        self.refused = ""  # why the broker refused the board (bad user or password)
        self.line = self._line()
        self._written = False

    def _line(self) -> str:
        queued = f", {self.queued} queued" if self.queued else ""
        if self.connected:
            return f"club: connected to {self.host}{queued}"
        if self.refused:
            return f"club: {self.host} refused: {self.refused}{queued}"
        return f"club: broker unreachable{queued}"

    def update(self, connected: bool, queued: int) -> bool:
        """Whether the line changed (it is then written for ``binaryon doctor``)."""
        if connected:
            self.refused = ""
        self.connected, self.queued = connected, queued
        line = self._line()
        if line == self.line:
            if not self._written:
                self._write()
            return False
        self.line = line
        self._write()
        return True

    def _write(self) -> None:
        if self.path is None:
            return
        data = {"line": self.line, "connected": self.connected, "queued": self.queued}
        try:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps({**data, "pid": os.getpid()}))
            os.replace(tmp, self.path)
            self._written = True
        except OSError as e:
            log.debug("club: %s not written: %s", self.path, e)

    def forget(self) -> None:
        if self.path is not None:
            with suppress(OSError):
                self.path.unlink()
