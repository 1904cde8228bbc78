"""Small key/value facts kept in the journal's ``meta`` table, for ``SqliteJournal`` (a mixin):
what a feature must remember across restarts beside the games (the journal's own uid, which
finished games a club's hub has acknowledged), in the same file, so a copy of the journal
carries them and a new journal starts without them."""

from __future__ import annotations

from companion.journal.rows import FINISHED
from companion.journal.store_masked import has_disputes

# keys the journal itself uses; set_meta refuses them
OWN_KEYS = ("clean", "opened", "lost")


class JournalMeta:
    def meta(self, key: str) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every key starting with ``prefix`` (``_`` and ``%`` in it are plain characters)."""
        like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._read() as db:
            rows = db.execute(
                "SELECT key, value FROM meta WHERE key LIKE ? ESCAPE '\\' ORDER BY key", (like,)
            ).fetchall()
        return dict(rows)

    def set_meta(self, values: dict[str, str | None]) -> None:
        """Set (None: delete) several keys in one durable transaction; JournalError."""
        if any(key in OWN_KEYS for key in values):
            raise ValueError(f"meta keys {', '.join(OWN_KEYS)} are the journal's own")
        with self._write() as db:
            for key, value in values.items():
                if value is None:
                    db.execute("DELETE FROM meta WHERE key = ?", (key,))
                else:
                    db.execute(
                        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)
                    )

    def finished_since(self, first_id: int) -> list[int]:
        """The ids of the games finished here (not imported from records) numbered
        ``first_id`` or more, oldest first, and the remote games disputed or unverified
        (their result is the arbiter's: it goes to the hub marked so)."""
        with self._read() as db:
            either = " OR dispute IS NOT NULL" if has_disputes(db) else ""
            rows = db.execute(
                f"SELECT id FROM games WHERE id >= ? AND (status = ?{either}) AND digest IS NULL"
                " ORDER BY id",
                (first_id, FINISHED),
            ).fetchall()
        return [row[0] for row in rows]
