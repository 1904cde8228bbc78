# Sourced by ./run and ./run-tests: make .venv with the package installed (extras in $EXTRAS).
# Needs only Python 3.11+. On Debian without python3-venv (no ensurepip), pip comes from PyPI.
set -euo pipefail
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
  echo "binaryon: $PY not found: install Python 3.11 or newer" >&2; exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "binaryon: $("$PY" --version 2>&1) is too old: Python 3.11 or newer is needed" >&2; exit 1
fi
# On a Raspberry Pi the venv sees the system's GPIO/SPI modules (python3-lgpio, python3-spidev,
# RPi.GPIO ship with Raspberry Pi OS), which need no compiler, unlike their PyPI sources.
VENV_OPTS=""
if [ -r /proc/device-tree/model ] && grep -qi "raspberry pi" /proc/device-tree/model; then
  VENV_OPTS="--system-site-packages"
fi
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  rm -rf .venv
  if ! "$PY" -m venv $VENV_OPTS .venv >/dev/null 2>&1; then
    rm -rf .venv
    "$PY" -m venv $VENV_OPTS --without-pip .venv
    .venv/bin/python scripts/fetch_pip.py
  fi
fi
spec=".${EXTRAS:+[$EXTRAS]}"
stamp=".venv/.installed-compat-$(echo "$spec" | tr -c 'a-z0-9' '_')"
if [ ! -e "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "binaryon: installing into .venv ($spec)..." >&2
  # compat: a plain path in a .pth, not setuptools' import finder, which every command
  # (and Python's own start) would load first: about a tenth of a second on a Pi Zero
  .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    --config-settings editable_mode=compat -e "$spec"
  touch "$stamp"
fi
