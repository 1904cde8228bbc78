"""The journal's own files while it is open, for ``SqliteJournal`` (a mixin): a loss kept in
the journal until the user accepts it, and the file and WAL the writer writes still being
the ones its name leads to."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import suppress
from pathlib import Path

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.db import describe_error
from companion.journal.reading import ACCEPT_HINT, file_id

log = logging.getLogger(PROGRAM)


class JournalFiles:
    def _recorded_loss(self) -> str | None:
        """The loss kept in the journal's meta table by the start that found it."""
        with suppress(sqlite3.Error):
            row = self._db.execute("SELECT value FROM meta WHERE key = 'lost'").fetchone()
            return f"{row[0]} ({ACCEPT_HINT})" if row and row[0] else None
        return None

    def _keep_loss(self, line: str) -> None:
        """Record a loss in the journal itself, so every command says it until accepted."""
        try:
            with self._write() as db:
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('lost', ?)", (line,))
        except JournalError as e:
            log.warning("journal %s: the loss could not be recorded: %s", self.path, e)

    def accept_loss(self) -> str | None:
        """The user has dealt with a lost WAL: stop saying it. Returns what was said."""
        was = self._recorded_loss()
        if was is not None:
            with self._write() as db:
                db.execute("DELETE FROM meta WHERE key = 'lost'")
        self.loss = None
        return was

    def _check_file(self) -> None:
        """JournalError when the journal's name no longer leads to the file this connection
        writes (removed or replaced by another program): a move written now would be lost.
        A WAL removed or replaced under the writer (SQLite goes on writing the removed one,
        lost at the next crash) is checkpointed into the journal and made anew."""
        if self._file is not None and file_id(self.path) != self._file:
            raise JournalError(
                f"the journal file {self.path} was removed or replaced by another program: "
                "moves cannot be saved (restart the companion)"
            )
        wal = self.path.with_name(self.path.name + "-wal")
        if self._wal is not None and file_id(wal) != self._wal:
            self._new_wal(wal)

    def _new_wal(self, wal: Path) -> None:
        db = self._db
        try:
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:
                raise sqlite3.OperationalError("database is locked")
            db.execute("PRAGMA journal_mode = DELETE").fetchone()
            db.execute("PRAGMA journal_mode = WAL").fetchone()
        except sqlite3.Error as e:
            raise JournalError(
                f"the journal's WAL {wal} was removed or replaced by another program and "
                f"cannot be made anew ({describe_error(e)}): restart the companion"
            ) from None
        self._wal = file_id(wal)
        log.warning(
            "journal %s: its WAL was removed or replaced by another program; everything in it "
            "was saved into the journal and a new WAL made",
            self.path,
        )
