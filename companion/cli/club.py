"""``binaryon club``: the club's hub (docs/club.md). It follows every board on the broker,
shows them on its pages, stores their results and acknowledges them. ``binaryon club setup``
writes the broker's users and ACL for a club (docs/club.md, "Security")."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--broker",
        metavar="URL",
        help="the MQTT broker, mqtt://HOST:PORT or mqtts://HOST:PORT (default: [club] broker); "
        "user, password and CA file only from the config file's [club]",
    )
    p.add_argument(
        "--web",
        metavar="HOST:PORT",
        default="127.0.0.1:8090",
        help="where the hub's pages listen (default 127.0.0.1:8090; 0.0.0.0:8090 for the LAN)",
    )
    p.add_argument(
        "--store",
        metavar="PATH",
        help="the results file (SQLite; default: club.sqlite beside the journal's default)",
    )
    p.add_argument("--config", metavar="FILE", help="TOML config (its [club] and [web] hosts)")
    p.add_argument(
        "--forget-after",
        metavar="MINUTES",
        type=_minutes,
        default=60.0,
        help="forget a board offline and silent for this long, unless the event plays on it "
        "(default 60)",
    )
    p.add_argument(
        "--event",
        metavar="EVENT.toml",
        help="run a tournament (docs/club.md, Tournaments): pairings to the boards, their "
        "results, standings at /event; the arbiter's token is printed at the start",
    )
    sub = p.add_subparsers(dest="club_command", metavar="setup")
    setup = sub.add_parser(
        "setup",
        help="write the broker's password and ACL files and each board's and the hub's [club]",
        description="Write the broker's password file (Mosquitto's PBKDF2-SHA512) and ACL file "
        "(each board writes only its own topics, the hub only its own), a mosquitto.conf "
        "snippet, and each board's and the hub's [club] config (mode 0600).",
    )
    setup.add_argument("--boards", required=True, metavar="t1,t2,...", help="the boards' names")
    setup.add_argument("--out", required=True, metavar="DIR", help="where to write the files")
    setup.add_argument(
        "--broker",
        dest="setup_broker",
        default="mqtt://club.lan:1883",
        metavar="URL",
        help="the broker's address in the configs (default mqtt://club.lan:1883)",
    )
    setup.add_argument(
        "--ca-file",
        default="",
        metavar="PEM",
        help="mqtts: the CA of the broker's certificate, as the boards will find it",
    )


def run(args: argparse.Namespace) -> int:
    if getattr(args, "club_command", None) == "setup":
        return run_setup(args)
    from companion.club.broker import BrokerError
    from companion.club.event.spec import EventError, load_event
    from companion.club.event.store import EventStoreError
    from companion.core.broker_url import parse_broker_url
    from companion.core.config import ConfigError
    from companion.views.web.address import ListenError, parse_listen

    try:
        config = hub_config(args.config)
        listen = parse_listen(args.web)
        if args.event:
            load_event(args.event)  # a bad event file is one line, before anything starts
    except (ConfigError, ListenError, EventError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    if not (args.broker or config.club.broker):
        print("binaryon: no broker: give --broker mqtt://HOST:PORT or [club] broker",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        broker = parse_broker_url(args.broker or config.club.broker)
    except ValueError as e:
        where = "--broker" if args.broker else "[club] broker"
        print(f"binaryon: {where} {e}", file=sys.stderr)
        return 2
    from companion.club.hub.store import default_store_path

    store = Path(args.store).expanduser() if args.store else default_store_path()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    from companion.club.hub.run import serve

    try:
        asyncio.run(
            serve(
                broker,
                listen,
                store,
                config.club,
                config.web.hosts,
                say=_say,
                event=args.event,
                forget_after=args.forget_after * 60,
            )
        )
    except (BrokerError, EventError, EventStoreError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"binaryon: club: {e.strerror or e}", file=sys.stderr)
        return 1
    except sqlite3.Error as e:
        print(f"binaryon: club: results file {store}: {e}", file=sys.stderr)
        return 1
    return 0


def run_setup(args: argparse.Namespace) -> int:
    """``binaryon club setup``: the files, then what to do with them, in a few lines."""
    from companion.club.setup import parse_boards, write_setup
    from companion.core.broker_url import parse_broker_url

    try:
        boards = parse_boards(args.boards)
        address = parse_broker_url(args.setup_broker)
    except ValueError as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    out = Path(args.out).expanduser()
    try:
        write_setup(out, boards, args.setup_broker, ca_file=args.ca_file, port=address.port)
    except OSError as e:
        print(f"binaryon: {out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"club: {len(boards)} boards and the hub written to {out}:")
    print(f"  broker: {out / 'passwd'}, {out / 'acl'} (see {out / 'mosquitto.conf'})")
    print(f"  hub: [club] of {out / 'hub.toml'}; boards: {out}/<board>.toml, one for each")
    return 0


def hub_config(path: str | None):
    """The config file as ``binaryon run`` finds it (--config, $BINARYON_CONFIG, the usual
    places), read alone: the hub needs only its [club] and [web] tables, not a board's name or
    the checks of a board's game, pins and journal."""
    import os

    from companion.core.config import Config
    from companion.service.app import CONFIG_PLACES

    path = path or os.environ.get("BINARYON_CONFIG")
    if not path:
        found = (os.path.expanduser(p) for p in CONFIG_PLACES)
        path = next((p for p in found if os.path.exists(p)), None)
    return Config.load(path) if path else Config.default()


def _minutes(value: str) -> float:
    try:
        minutes = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of minutes") from None
    if not 0 < minutes <= 60 * 24 * 365:
        raise argparse.ArgumentTypeError("minutes must be more than 0, at most a year")
    return minutes


def _say(line: str) -> None:
    print(line, flush=True)
