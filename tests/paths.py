"""Where the checkout is, for tests in any folder."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
