"""What signing a remote game's clock, flag and takeback messages costs a board (docs/club.md,
"A dishonest peer"): the control chain made once a game (``Keys.control``: 4,096 hashes),
then for each message the sender's number kept in its journal, and the receiver's check
(the message's digest, its key hashed down to the last one taken, ``ControlTaken``) and its
number kept, on a real SQLite journal in a temporary folder.

    .venv/bin/python benchmarks/bench_remote_control.py --messages 200

Prints the median of each step, and the whole cost of a message on both boards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club.remote_commit import TAKEN, Chain, ControlTaken, Keys, new_seed  # noqa: E402
from companion.journal.store import SqliteJournal  # noqa: E402


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    args = parser.parse_args()

    chains = []
    for _ in range(5):
        started = time.perf_counter()
        keys = Keys(new_seed())
        keys.control.anchor  # noqa: B018 (the chain is made here)
        chains.append(time.perf_counter() - started)
    control = keys.control
    taken = ControlTaken(Chain(control.anchor))
    snapshot = {"running": "on", "paused": True, "left": {"on": 291.2, "off": 300.0}, "used": 3.1}
    with tempfile.TemporaryDirectory() as folder:
        journal = SqliteJournal.open(Path(folder) / "journal.sqlite")
        sent, checked, kept = [], [], []
        for n in range(args.messages):
            started = time.perf_counter()
            journal.set_meta({"remote.control.sent.1": str(n + 1)})
            key = control.key(n)
            sent.append(time.perf_counter() - started)
            message = {"board": "t4", "kind": "clock", "ply": n, "clock": snapshot,
                       "cseq": n, "ckey": key}  # fmt: skip
            started = time.perf_counter()
            digest = hashlib.sha256(json.dumps(message, sort_keys=True).encode()).hexdigest()
            assert taken.take(n, key, digest) == TAKEN
            checked.append(time.perf_counter() - started)
            started = time.perf_counter()
            journal.set_meta({"remote.control.taken.1": str(n)})
            kept.append(time.perf_counter() - started)
        journal.close()
    print(f"control chain made once a game: median {median_ms(chains):.2f} ms")
    print(f"{args.messages} control messages:")
    print(f"  sender: number kept + key: median {median_ms(sent):.2f} ms")
    print(f"  receiver: digest + key checked: median {median_ms(checked):.3f} ms")
    print(f"  receiver: number kept: median {median_ms(kept):.2f} ms")
    whole = median_ms(sent) + median_ms(checked) + median_ms(kept)
    print(f"  a message on both boards: about {whole:.2f} ms")


if __name__ == "__main__":
    main()
