#!/bin/sh
# Install or update the board link firmware on a Raspberry Pi Pico that runs MicroPython.
# Usage: firmware/install.sh [PORT]      PORT: e.g. /dev/ttyACM0; default: the first Pico found.
# Needs mpremote (pip install mpremote). Edit firmware/config.py (pins, sensor kind) first.
set -eu
cd "$(dirname "$0")"
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
# reset.flag: the RP2040 reports this reset as a watchdog one; the flag tells the firmware it
# was asked for, so the host is not shown a false "ERR wdt".
mpremote connect "$PORT" cp -r boardfw config.py main.py : \
    + exec "open('reset.flag', 'w').write('install')" + reset
echo "firmware installed on $PORT"
