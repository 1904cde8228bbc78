"""Install pip into a venv made with --without-pip, from PyPI alone (no get-pip script).

A pip wheel is itself runnable: ``python pip-X.whl/pip install pip`` installs pip from it.
"""

import json
import os
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")


def main() -> int:
    base = INDEX[: -len("/simple")] if INDEX.endswith("/simple") else "https://pypi.org"
    meta = f"{base}/pypi/pip/json"
    with urllib.request.urlopen(meta, timeout=60) as r:
        info = json.load(r)
    wheel = next(u for u in info["urls"] if u["filename"].endswith(".whl"))
    url = urllib.parse.urljoin(meta, wheel["url"])  # mirrors may answer with relative links
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, wheel["filename"])
        urllib.request.urlretrieve(url, path)
        return subprocess.call([sys.executable, os.path.join(path, "pip"), "install", "-q", path])


if __name__ == "__main__":
    sys.exit(main())
