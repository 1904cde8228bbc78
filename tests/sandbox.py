"""Runs a command under the restrictions a systemd unit file puts on its service, without
systemd: what the tests need to prove the installed service works, here and in CI (root, no
systemd as PID 1).

    python -m tests.sandbox [UNIT] [--nofile N] -- COMMAND...

From the unit it applies, in this process and then ``exec``s the command (which inherits it
all):

- ``RestrictAddressFamilies=``: a seccomp filter (libseccomp, through ``pyseccomp``) that makes
  ``socket()`` of any other family fail with EAFNOSUPPORT, as systemd's own filter does;
- ``SystemCallFilter=`` / ``SystemCallErrorNumber=`` / ``SystemCallArchitectures=native``: an
  allow-list of the named system calls and groups (the groups expanded by
  ``systemd-analyze syscall-filter``), every other call failing with that error number;
  skipped, with a line on stderr, where systemd-analyze is missing;
- ``NoNewPrivileges=yes`` (libseccomp sets it when it loads a filter),
  ``CapabilityBoundingSet=`` (empty: every capability dropped), ``UMask=``;
- ``--nofile N``: a lower RLIMIT_NOFILE, as ``LimitNOFILE=`` would (a Pi's default is 1024).

``Environment=`` and the folders are the caller's to map (see ``unit_environment``).
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import shutil
import socket
import subprocess
import sys
from pathlib import Path

PR_CAPBSET_DROP = 24


def directives(unit: str | os.PathLike[str]) -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit, in order, values stripped (comments skipped)."""
    out: dict[str, list[str]] = {}
    for line in Path(unit).read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;[" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        out.setdefault(key.strip(), []).append(value.strip())
    return out


def unit_environment(unit: str | os.PathLike[str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for value in directives(unit).get("Environment", []):
        for item in value.split():
            key, _, val = item.partition("=")
            env[key] = val
    return env


def allowed_families(values: list[str]) -> set[int]:
    """The families a list of ``RestrictAddressFamilies=`` lines allows (systemd's rules: an
    empty assignment resets, ``~`` makes a deny-list)."""
    allow: set[int] | None = None
    deny: set[int] = set()
    for value in values:
        if not value:
            allow, deny = None, set()
            continue
        names = value.split()
        inverted = names[0].startswith("~")
        names = [n.lstrip("~") for n in names]
        numbers = {int(getattr(socket, n)) for n in names if hasattr(socket, n)}
        if inverted:
            deny |= numbers
        else:
            allow = numbers if allow is None else allow | numbers
    every = set(range(64))
    return (allow if allow is not None else every) - deny


def syscall_groups() -> dict[str, list[str]] | None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        return None
    out = subprocess.run([tool, "syscall-filter"], capture_output=True, text=True).stdout
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.strip())
    return groups


def expand(names: list[str], groups: dict[str, list[str]]) -> set[str]:
    out: set[str] = set()
    for name in names:
        if name.startswith("@"):
            out |= expand(groups.get(name, []), groups)
        else:
            out.add(name)
    return out


def apply(unit: str | os.PathLike[str] | None, nofile: int | None = None) -> list[str]:
    """Restrict this process as the unit would (only the file limit without one); returns
    the directives applied."""
    d = directives(unit) if unit is not None else {}
    done = []
    if "UMask" in d:
        os.umask(int(d["UMask"][-1], 8))
        done.append("UMask")
    if nofile is not None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        done.append(f"LimitNOFILE={nofile}")
    if d.get("CapabilityBoundingSet") == [""]:
        libc = ctypes.CDLL(None, use_errno=True)
        last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
        for cap in range(last + 1):
            if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), f"cannot drop capability {cap}")
        done.append("CapabilityBoundingSet=")

    filters = []
    if "RestrictAddressFamilies" in d or "SystemCallFilter" in d:
        import pyseccomp as seccomp
    if "RestrictAddressFamilies" in d:
        allowed = allowed_families(d["RestrictAddressFamilies"])
        f = seccomp.SyscallFilter(seccomp.ALLOW)
        for family in range(64):
            if family not in allowed:
                f.add_rule(
                    seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, family)
                )
        f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.GE, 64))
        filters.append(f)
        done.append("RestrictAddressFamilies")
    if "SystemCallFilter" in d:
        groups = syscall_groups()
        if groups is None:
            print("sandbox: no systemd-analyze: SystemCallFilter not applied", file=sys.stderr)
        else:
            names = [n for v in d["SystemCallFilter"] for n in v.split()]
            code = getattr(errno, d.get("SystemCallErrorNumber", ["EPERM"])[-1])
            f = seccomp.SyscallFilter(seccomp.ERRNO(code))
            for name in sorted(expand(names, groups)):
                try:
                    f.add_rule(seccomp.ALLOW, name)
                except Exception:  # not a system call of this architecture: systemd skips it too
                    continue
            filters.append(f)
            done.append("SystemCallFilter")
    for f in filters:
        f.load()  # sets no_new_privs first (NoNewPrivileges=yes)
    if filters:
        done.append("NoNewPrivileges")
    return done


def seccomp_refused() -> str | None:
    """Why no seccomp filter can be loaded on this machine, or None. Asked in a child, since a
    loaded filter (and the no-new-privileges bit that comes with it) stays for the process.
    qemu-user, which runs the suite in an emulated Raspberry Pi root, refuses them."""
    code = "import pyseccomp as s; s.SyscallFilter(s.ALLOW).load()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        return None
    last = (r.stderr.strip().splitlines() or ["no reason given"])[-1]
    return f"this machine loads no seccomp filter ({last}): the unit's sandbox cannot be applied"


def main(argv: list[str]) -> None:
    if "--" not in argv:
        raise SystemExit("usage: python -m tests.sandbox [UNIT] [--nofile N] -- COMMAND...")
    cut = argv.index("--")
    ours, command = argv[:cut], argv[cut + 1 :]
    nofile = None
    if "--nofile" in ours:
        at = ours.index("--nofile")
        nofile = int(ours[at + 1])
        del ours[at : at + 2]
    applied = apply(ours[0] if ours else None, nofile)
    print(f"sandbox: {' '.join(applied)}", file=sys.stderr, flush=True)
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
