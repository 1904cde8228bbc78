"""What the Pico does at power-up, for the unix port: run main.py from the flash folder (the
working directory), then, when it returns (maintenance boot, a config mistake, BOOTSEL held),
sit in the REPL on stdin/stdout like the rp2 port does, with the raw REPL that ``mpremote``
drives: Ctrl-A enters it, code up to Ctrl-D is run (``OK``, output, Ctrl-D, error, Ctrl-D,
``>``), Ctrl-D alone is a soft reset, Ctrl-B leaves it. Raw-paste mode is declined
(``R\\x00``), so mpremote falls back to the plain raw REPL.

The test harness starts it with ``micropython -c "import pico_boot"``; ``machine`` (the
stand-in) reports ``repl`` when main.py has returned.
"""

import os
import sys

import machine

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"


def _run_main():
    try:
        os.stat("main.py")
    except OSError:  # a Pico with MicroPython only: straight to the REPL
        machine.notify("repl")
        return
    try:
        import main  # noqa: F401 - runs the firmware, as the Pico does at boot
    except Exception as e:
        sys.print_exception(e, sys.stderr)
    machine.notify("repl")


def _read(inp):
    b = inp.read(1)
    if not b:  # the other end is gone: power off
        sys.exit(0)
    return b[0]


def _exec(code, out, scope):
    out.write(b"OK")
    try:
        exec(code, scope)
        err = None
    except Exception as e:
        err = e
    out.write(b"\x04")
    if err is not None:
        sys.print_exception(err, sys.stdout)
    out.write(b"\x04>")


def repl():
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    scope = {"__name__": "__main__"}
    raw = False
    code = bytearray()
    while True:
        c = _read(inp)
        if c == 1:  # Ctrl-A: (re)enter the raw REPL
            raw = True
            code = bytearray()
            out.write(b"\r\n" + RAW_BANNER)
        elif not raw:
            if c == 13:
                out.write(b"\r\n>>> ")
        elif c == 2:  # Ctrl-B: the friendly REPL
            raw = False
            out.write(b"\r\nMicroPython (unix port, Pico stand-ins)\r\n>>> ")
        elif c == 3:  # Ctrl-C: drop what was typed
            code = bytearray()
        elif c == 5:  # raw-paste request (Ctrl-E A Ctrl-A): not supported
            _read(inp)
            _read(inp)
            out.write(b"R\x00")
        elif c == 4:
            if code:
                _exec(bytes(code), out, scope)
                code = bytearray()
            else:  # soft reset: a fresh namespace, main.py not run (raw REPL)
                scope = {"__name__": "__main__"}
                out.write(b"OK\r\nMPY: soft reboot\r\n" + RAW_BANNER)
        else:
            code.append(c)


_run_main()
repl()
