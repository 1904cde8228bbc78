"""Reading SQLite's WAL file by its format, without SQLite: header, salts, checksums,
frames, and the database image a view of the WAL gives.

SQLite's own recovery replays WAL frames only while each frame's checksum follows from the
one before (checksums are cumulative) and stops at the first that does not: a single bad
byte silently drops every later commit, and the next checkpoint makes that final. So the
journal reads the WAL itself as well, by its documented format
(sqlite.org/fileformat2.html#walformat):
  header (32 bytes): magic 0x377f0682/3 (the low bit: checksums big-endian), version
    3007000, page size, checkpoint number, salt-1, salt-2, checksum-1, checksum-2;
  each frame: a 24-byte header (page number, database size in pages for a commit frame
    else 0, salt-1, salt-2, checksum-1, checksum-2) and then the page.
Frames of the current write cycle carry the header's salts; frames left from an earlier
cycle (the WAL is reused from the start after a checkpoint) carry other salts and are
ignored. Damage: a commit of the current cycle, its own checksum sound, that SQLite would
not replay (it lies after a damaged frame, or the WAL header is damaged).
Not damage: frames after the last commit with no sound commit among them. That is a write
that never completed, so was never confirmed: a kill or power cut between SQLite's writes
of one commit (a frame's header and its page are two writes), or what such a write left
beyond a shorter one made after the restart. SQLite rightly ignores them; the daemon logs it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

DB_MAGIC = b"SQLite format 3\0"  # a database file's first bytes
_WAL_MAGIC = {0x377F0682: False, 0x377F0683: True}  # -> checksum words are big-endian
_WAL_VERSION = 3007000


def _wal_sum(data: bytes, start: tuple[int, int], big: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continuing from ``start``."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    s0, s1 = start
    for a, b in zip(words[::2], words[1::2], strict=True):
        s0 = (s0 + a + s1) & 0xFFFFFFFF
        s1 = (s1 + b + s0) & 0xFFFFFFFF
    return s0, s1


@dataclass
class WalFrame:
    index: int  # 0-based position in the WAL file
    page: int
    commit: int  # database size in pages after this commit; 0 if not a commit frame
    data: bytes
    fits: bool = False  # its checksum holds: header and page are as written
    chained: bool = False  # SQLite's recovery accepts it (salts, and the chain from the start)


@dataclass
class WalScan:
    """The frames of the WAL's current write cycle and how far SQLite would replay them.

    Views of it (``usable``): "sqlite", what SQLite itself replays; "sound", every frame whose
    own checksum holds, up to the last such commit frame, even past a damaged frame; "all",
    as "sound" plus damaged frames no later frame replaces, used as found."""

    page_size: int = 4096
    header_ok: bool = True
    frames: list[WalFrame] = field(default_factory=list)
    replayed: int = 0  # frames SQLite's recovery uses: the unbroken chain up to its last commit
    salts: tuple[int, ...] = ()  # the header's, when the header is sound

    def _sound(self) -> list[WalFrame]:
        good = [f for f in self.frames if f.fits]
        last = max((i for i, f in enumerate(good) if f.commit), default=-1)
        return good[: last + 1]

    def _unreplaced(self) -> list[WalFrame]:
        """Damaged frames before the last sound commit that no later sound frame replaces."""
        sound = self._sound()
        end = sound[-1].index if sound else -1
        return [
            f
            for f in self.frames
            if not f.fits
            and f.index < end
            and not any(g.page == f.page and g.index > f.index for g in sound)
        ]

    def usable(self, view: str) -> list[WalFrame]:
        if view == "sqlite":
            return self.frames[: self.replayed]
        sound = self._sound()
        if view == "sound" or not sound:
            return sound
        pages = max(f.commit for f in sound)
        extra = [f for f in self._unreplaced() if 1 <= f.page <= pages and f.data]
        return sorted(sound + extra, key=lambda f: f.index)

    def dropped_commits(self) -> int:
        """Sound commits SQLite's recovery would not replay."""
        return len([f for f in self.frames[self.replayed :] if f.commit and f.fits])

    def cut_short(self) -> int:
        """Frames after the last commit SQLite replays, when none of them is a sound commit
        (a write that never completed; see the module docstring)."""
        return 0 if self.dropped_commits() else len(self.frames[self.replayed :])

    def problem(self) -> str | None:
        """One line when SQLite's recovery would drop committed writes, else None."""
        later = self.dropped_commits()
        if not later:
            return None
        total = len(self.frames)
        if not self.header_ok:
            return f"WAL header damaged: {later} commits in its {total} frames would be ignored"
        broken = next((f for f in self.frames if not f.chained), self.frames[self.replayed])
        return (
            f"WAL frame {broken.index + 1} of {total} is damaged; "
            f"{later} commits after it would be dropped"
        )

    def losses(self, view: str) -> tuple[list[str], bool]:
        """What a view cannot restore: (lines for the report, whether moves may be missing
        without trace in the tables)."""
        if not self.frames[self.replayed :]:
            return [], False
        lost: list[str] = []
        unsure = False  # a page whose latest copy is gone: the tables may not show the loss
        used = {f.index for f in self.usable(view)}
        for f in self._unreplaced():
            how = "damaged, used as found" if f.index in used else "unreadable"
            lost.append(f"WAL frame {f.index + 1} (page {f.page}) {how}")
            unsure = True
        sound = self._sound()
        end = sound[-1].index if sound else -1
        tail = [f for f in self.frames if f.index > end]
        if tail and all(f.fits for f in tail):
            lost.append(f"a write cut short before its commit ({len(tail)} WAL frames)")
        elif tail:
            lost.append(f"the last write ({len(tail)} WAL frames) unreadable")
            unsure = True
        return lost, unsure


def scan_wal(data: bytes, page_size: int = 0) -> WalScan:
    """Read a WAL file's bytes (see the module docstring); never fails."""
    head = data[:32]
    magic, version, size, _, salt1, salt2, c0, c1 = (
        struct.unpack(">8I", head) if len(head) == 32 else (0,) * 8
    )
    big = _WAL_MAGIC.get(magic)
    good_size = 512 <= size <= 65536 and size & (size - 1) == 0
    header_ok = (
        big is not None
        and version == _WAL_VERSION
        and good_size
        and _wal_sum(head[:24], (0, 0), big) == (c0, c1)
    )
    scan = WalScan(page_size=size if good_size else page_size or 4096, header_ok=header_ok)
    step = 24 + scan.page_size
    count = max(0, len(data) - 32) // step
    heads = [struct.unpack(">6I", data[32 + i * step : 56 + i * step]) for i in range(count)]
    if header_ok:
        salts = (salt1, salt2)
        scan.salts = salts
    else:  # guess the cycle from the first frame; an all-zero file holds nothing
        salts = heads[0][2:4] if heads and any(data[32 : 32 + step]) else (-1, -1)
    last = max((i for i, h in enumerate(heads) if h[2:4] == salts), default=-1)
    partial = data[32 + count * step :]
    if len(partial) >= 16 and struct.unpack(">2I", partial[8:16]) == salts:
        last = count  # a frame cut short, written in the current cycle
    best: list[WalFrame] = []
    # a damaged header may hold the other valid magic (0x377f0682 and 0x377f0683 are one bit
    # apart): the byte order is then only known from the frames, so both are tried
    for order in [big] if header_ok else [True, False]:
        frames = _check_frames(data, heads, last, step, order, (c0, c1), head[:24], salts)
        if not best or sum(f.fits for f in frames) > sum(f.fits for f in best):
            best = frames
    scan.frames = best
    if header_ok:  # SQLite's view: the unbroken chain from the header, up to its last commit
        chained = 0
        for f in best:
            if not f.chained:
                break
            chained += 1
        scan.replayed = max((f.index + 1 for f in best[:chained] if f.commit), default=0)
    return scan


def _check_frames(
    data: bytes,
    heads: list[tuple[int, ...]],
    last: int,
    step: int,
    big: bool,
    stored_head: tuple[int, int],
    head: bytes,
    salts: tuple[int, ...],
) -> list[WalFrame]:
    """The frames of the current cycle, each with whether its checksum holds: from the
    checksum stored before it or (when that one is the damaged part) the one computed for it,
    so one bad byte costs at most one frame. The cycle runs to the last frame with its salts,
    or on while checksums chain (a damaged salt)."""
    frames: list[WalFrame] = []
    stored = stored_head
    computed = _wal_sum(head, (0, 0), big) if len(head) == 24 else stored_head
    chain = stored == computed
    for i in range(len(heads) + 1):
        if i == len(heads):
            if last == i:
                frames.append(WalFrame(i, 0, 0, b""))  # cut short: never whole
            break
        page, commit, s1, s2, k0, k1 = heads[i]
        raw = data[32 + i * step : 32 + (i + 1) * step]
        body = raw[:8] + raw[24:]
        via_stored = _wal_sum(body, stored, big)
        via_computed = via_stored if computed == stored else _wal_sum(body, computed, big)
        frame = WalFrame(i, page, commit, raw[24:])
        frame.fits = (k0, k1) in (via_stored, via_computed)
        if not frame.fits and (fixed := _repair_header(raw, (stored, computed), (k0, k1), big)):
            frame.page, frame.commit = fixed  # one byte of its page number or size was bad
            frame.fits = True
        if (k0, k1) == via_computed and frames and not frames[-1].fits:
            frames[-1].fits = True  # only the previous frame's stored checksum was damaged
        if i > last and not frame.fits:
            break  # the end of this cycle (a frame with damaged salts still chains on)
        chain = chain and (s1, s2) == salts and (k0, k1) == via_stored
        frame.chained = chain
        frames.append(frame)
        stored, computed = (k0, k1), via_stored if (k0, k1) != via_computed else via_computed
    return frames


def _repair_header(
    raw: bytes, starts: tuple[tuple[int, int], ...], want: tuple[int, int], big: bool
) -> tuple[int, int] | None:
    """(page number, commit size) that make a frame's checksum hold when one byte of them
    was damaged, or None. The checksum of the page that follows the 8 header bytes is affine
    in the state it starts from, so each of the 2040 candidates costs two multiplications."""
    fmt = ">2I" if big else "<2I"
    page = raw[24:]
    c = _wal_sum(page, (0, 0), big)
    m0 = [(a - b) & 0xFFFFFFFF for a, b in zip(_wal_sum(page, (1, 0), big), c, strict=True)]
    m1 = [(a - b) & 0xFFFFFFFF for a, b in zip(_wal_sum(page, (0, 1), big), c, strict=True)]
    head = bytearray(raw[:8])
    for at in range(8):
        keep = head[at]
        for value in range(256):
            if value == keep:
                continue
            head[at] = value
            x0, x1 = struct.unpack(fmt, head)
            for s0, s1 in set(starts):
                s0 = (s0 + x0 + s1) & 0xFFFFFFFF
                s1 = (s1 + x1 + s0) & 0xFFFFFFFF
                got = tuple((m0[k] * s0 + m1[k] * s1 + c[k]) & 0xFFFFFFFF for k in range(2))
                if got == want:
                    return struct.unpack(">2I", head)
        head[at] = keep
    return None


def db_image(db: bytes, wal: WalScan, view: str) -> bytes:
    """The database as it stands with a view of the WAL (see WalScan) applied."""
    frames = wal.usable(view)
    if not frames:
        return db
    size = wal.page_size
    out = bytearray(db)
    for f in frames:
        at = (f.page - 1) * size
        if f.page < 1 or at > 1 << 30:
            continue  # a page number no real journal has
        if len(out) < at + size:
            out.extend(bytes(at + size - len(out)))
        out[at : at + size] = f.data
    last_commit = max((f.index for f in frames if f.commit), default=-1)
    commit = next(f.commit for f in frames if f.index == last_commit) if last_commit >= 0 else 0
    if commit:
        del out[commit * size :]
    return bytes(out)


def db_page_size(db: bytes) -> int:
    """The page size a database image's header gives; 0 without a header."""
    if len(db) < 100 or not db.startswith(DB_MAGIC):
        return 0
    size = int.from_bytes(db[16:18], "big")
    return 65536 if size == 1 else size


@dataclass(frozen=True)
class ShmHeader:
    """What SQLite's shared-memory index (``-shm``) says of the WAL: committed frames
    (``frames``), how many are already copied into the main file (``backfilled``), salts."""

    frames: int
    backfilled: int
    salts: tuple[int, int]
    page_size: int


def read_shm(data: bytes) -> ShmHeader | None:
    """The index header of a ``-shm`` file (native byte order, two copies that must agree,
    a checksum), or None when it is missing, torn or not initialised."""
    import sys

    if len(data) < 136:
        return None
    order = "<" if sys.byteorder == "little" else ">"
    first, second = data[:48], data[48:96]
    if first != second:
        return None
    version, _, _change, is_init, _big, size, mx, _npage = struct.unpack(
        order + "3I2BH2I", first[:24]
    )
    salts = struct.unpack(">2I", first[32:40])  # copied as the WAL header has them
    cksum = struct.unpack(order + "2I", first[40:48])
    if version != _WAL_VERSION or not is_init:
        return None
    if _wal_sum(first[:40], (0, 0), order == ">") != cksum:
        return None
    backfill = struct.unpack(order + "I", data[96:100])[0]
    page = 65536 if size == 1 else size
    return ShmHeader(mx, backfill, (salts[0], salts[1]), page)


def wal_lost(shm: ShmHeader | None, wal: WalScan | None) -> int:
    """Committed WAL frames the ``-shm`` index knows of that the WAL no longer holds (it was
    deleted, zeroed, cut short or replaced), and that are not in the main file: 0 if none
    or when the index cannot tell."""
    if shm is None or shm.frames <= shm.backfilled:
        return 0
    if wal is None or not wal.header_ok:
        return shm.frames - shm.backfilled
    if tuple(wal.salts) != shm.salts:
        return 0  # a later write cycle than the index on disk knew (it is not synced)
    return max(0, shm.frames - max(wal.replayed, shm.backfilled))
