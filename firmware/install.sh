#!/bin/sh
# Install or update the board link firmware on a Raspberry Pi Pico that runs MicroPython.
# Usage: firmware/install.sh [PORT]      PORT: e.g. /dev/ttyACM0; default: the first Pico found.
# Needs mpremote (pip install mpremote). Edit firmware/config.py (pins, sensor kind) first,
# or use `binaryon firmware install`, which writes config.py from the companion's config.
set -eu
cd "$(dirname "$0")"
SERVICE=binaryon.service
# The companion's service holds the port and would write its HELLO into the REPL during the
# copy: stop it first (if it runs) and start it again afterwards, also when the copy fails.
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
stopped=""
start_service() {
    if [ -n "$stopped" ]; then
        echo "install.sh: starting $SERVICE again"
        $SUDO systemctl start "$SERVICE" || echo "install.sh: could not start $SERVICE" >&2
    fi
}
trap start_service EXIT
trap 'exit 130' INT TERM
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$SERVICE"; then
    echo "install.sh: stopping $SERVICE for the copy"
    $SUDO systemctl stop "$SERVICE"
    stopped=1
fi
PORT="${1:-}"
if [ -z "$PORT" ]; then
    PORT=$(mpremote connect list | awk 'tolower($3) == "2e8a:0005" { print $1; exit }')
    [ -n "$PORT" ] || { echo "install.sh: no Pico found (USB 2E8A:0005); plug it in" >&2; exit 1; }
fi
# A running firmware ignores Ctrl-C (so noise cannot stop it): ask it to reboot into the REPL.
# On a Pico without our firmware this line is harmless.
if [ -c "$PORT" ]; then
    stty -F "$PORT" 115200 raw -echo 2>/dev/null || true
    printf 'MAINT*8EB8\n' > "$PORT" || true
    sleep 3  # reboot and USB re-enumeration
fi
# reset.flag says why the next boot happens ("install"); the firmware also tells a reset asked
# for from a watchdog reset by the chip's own record, so a bare `mpremote ... reset` is no
# "ERR wdt" either.
mpremote connect "$PORT" cp -r boardfw config.py main.py : \
    + exec "open('reset.flag', 'w').write('install')" + reset
echo "firmware installed on $PORT"
