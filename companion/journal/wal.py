"""Reading SQLite's WAL file by its format, to see damage SQLite would not say.

SQLite's own recovery replays WAL frames only while each frame's checksum follows from the
one before (checksums are cumulative) and stops at the first that does not: a single bad
byte silently drops every later commit, and the next checkpoint makes that final. So the
journal reads the WAL by its documented format (sqlite.org/fileformat2.html#walformat):
  header (32 bytes): magic 0x377f0682/3 (the low bit: checksums big-endian), version
    3007000, page size, checkpoint number, salt-1, salt-2, checksum-1, checksum-2;
  each frame: a 24-byte header (page number, database size in pages for a commit frame
    else 0, salt-1, salt-2, checksum-1, checksum-2) and then the page.
Frames of the current write cycle carry the header's salts; frames left from an earlier
cycle (the WAL is reused from the start after a checkpoint) carry other salts and are
ignored. Damage: a commit of the current cycle whose own checksum holds (from the checksum
stored before it) that SQLite would not replay (it lies after a damaged frame, or the WAL
header is damaged). Not damage: frames after the last commit with no sound commit among
them, a write that never completed, so was never confirmed (a kill or power cut between
SQLite's writes of one commit). What is done about either: companion.journal.recovery.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass, field

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
    fits: bool = False  # its own checksum holds: header and page are as written


@dataclass
class WalScan:
    """The frames of the WAL's current write cycle and how far SQLite replays them."""

    page_size: int = 4096
    header_ok: bool = True
    frames: list[WalFrame] = field(default_factory=list)
    replayed: int = 0  # frames SQLite's recovery uses: the unbroken chain up to its last commit
    salts: tuple[int, ...] = ()  # the header's, when the header is sound

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
        broken = self.frames[self.replayed]
        return (
            f"WAL frame {broken.index + 1} of {total} is damaged; "
            f"{later} commits after it would be dropped"
        )

    def left_out(self) -> str | None:
        """What SQLite does not replay of a damaged WAL, said for the report, or None."""
        later = self.dropped_commits()
        if not later:
            return None
        where = f"after WAL frame {self.replayed}" if self.replayed else "in the WAL"
        return f"{later} commits {where} (moves among them)"


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
        scan.salts = salts = (salt1, salt2)
    else:  # the cycle from the first frame; an all-zero file holds nothing
        salts = heads[0][2:4] if heads and any(data[32 : 32 + step]) else (-1, -1)
    last = max((i for i, h in enumerate(heads) if h[2:4] == salts), default=-1)
    tail = 32 + count * step
    if len(data) - tail >= 16 and struct.unpack(">2I", data[tail + 8 : tail + 16]) == salts:
        last = count  # a frame cut short, written in the current cycle
    # a damaged header may hold the other magic (the two are one bit apart): the byte order
    # is then known only from the frames, so both are tried
    best: list[WalFrame] = []
    chained = 0
    for order in [big] if header_ok else [True, False]:
        frames, chain = _frames(data, heads, last, step, bool(order), (c0, c1), salts)
        if not best or sum(f.fits for f in frames) > sum(f.fits for f in best):
            best, chained = frames, chain
    scan.frames = best
    if header_ok:  # SQLite's view: the unbroken chain from the header, up to its last commit
        scan.replayed = max((f.index + 1 for f in best[:chained] if f.commit), default=0)
    return scan


def _frames(
    data: bytes,
    heads: list[tuple[int, ...]],
    last: int,
    step: int,
    big: bool,
    start: tuple[int, int],
    salts: tuple[int, ...],
) -> tuple[list[WalFrame], int]:
    """(the frames of the current cycle, each checked from the checksum stored before it;
    how many from the first chain unbroken, as SQLite replays them). The cycle runs to the
    last frame with its salts, or on while frames check (a damaged salt)."""
    frames: list[WalFrame] = []
    stored = start
    chain = True
    chained = 0
    for i, (page, commit, s1, s2, k0, k1) in enumerate(heads):
        raw = data[32 + i * step : 32 + (i + 1) * step]
        got = _wal_sum(raw[:8] + raw[24:], stored, big)
        frame = WalFrame(i, page, commit, raw[24:], fits=got == (k0, k1))
        if i > last and not frame.fits:
            break  # the end of this cycle
        chain = chain and frame.fits and (s1, s2) == salts
        chained += chain
        frames.append(frame)
        stored = (k0, k1)
    else:
        if last == len(heads):
            frames.append(WalFrame(len(heads), 0, 0, b""))  # cut short: never whole
    return frames, chained


def db_image(db: bytes, wal: WalScan) -> bytes:
    """The database as SQLite reads it: the main file with the frames it replays applied
    (for a copy in memory where SQLite cannot make its index)."""
    frames = wal.frames[: wal.replayed]
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
    del out[frames[-1].commit * size :]  # the chain ends on a commit: the database's size
    return bytes(out)


@dataclass(frozen=True)
class ShmHeader:
    """What SQLite's shared-memory index (``-shm``) says of the WAL: committed frames
    (``frames``), how many are already copied into the main file (``backfilled``), salts."""

    frames: int
    backfilled: int
    salts: tuple[int, int]


def read_shm(data: bytes) -> ShmHeader | None:
    """The index header of a ``-shm`` file (native byte order, two copies that must agree,
    a checksum), or None when it is missing, torn or not initialised."""
    if len(data) < 136:
        return None
    order = "<" if sys.byteorder == "little" else ">"
    first, second = data[:48], data[48:96]
    if first != second:
        return None
    version, _, _change, is_init, _big, _size, mx, _npage = struct.unpack(
        order + "3I2BH2I", first[:24]
    )
    salts = struct.unpack(">2I", first[32:40])  # copied as the WAL header has them
    cksum = struct.unpack(order + "2I", first[40:48])
    if version != _WAL_VERSION or not is_init:
        return None
    if _wal_sum(first[:40], (0, 0), order == ">") != cksum:
        return None
    backfill = struct.unpack(order + "I", data[96:100])[0]
    return ShmHeader(mx, backfill, (salts[0], salts[1]))


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
