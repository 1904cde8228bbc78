"""``binaryon invite``: the table page's address and each player's own page, for the running
companion (the same links its OLED shows as QR codes from the menu)."""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the companion's config (to find its files)")
    p.add_argument("--journal", metavar="PATH", help="the running companion's journal file")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from companion.core.config import ConfigError
    from companion.core.terminal_text import display_width, for_terminal, pad
    from companion.service.app import load_config, web_files
    from companion.views.web.invite import invite_json

    try:
        config = load_config(args.config)
        if args.journal:
            config = config.with_overrides(journal={"path": args.journal})
    except ConfigError as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    tokens_path, address_path = web_files(config)
    if not args.journal and not address_path.exists():  # a companion with --journal none
        tokens_path, address_path = web_files(config.with_overrides(journal={"path": "none"}))
    try:
        address = json.loads(address_path.read_text())
        if isinstance(address, dict) and "error" in address and "url" not in address:
            print(f"binaryon: the companion's pages are off: {address['error']}", file=sys.stderr)
            return 2
        url = address["url"]
        tokens = json.loads(tokens_path.read_text())["tokens"]
    except (OSError, ValueError, KeyError, TypeError):
        print(
            "binaryon: no companion is serving its pages here: start it with --web HOST:PORT "
            "or [web] listen in the config (one with another journal: give its --journal)",
            file=sys.stderr,
        )
        return 2
    links = invite_json(url, tokens)
    if args.json:
        print(json.dumps(links))
    else:
        rows = [("table", links["table"]), *links["players"].items()]
        labels = [for_terminal(f"{name}:") for name, _ in rows]  # a player's name is user text
        width = max(display_width(label) for label in labels)
        for label, (_, link) in zip(labels, rows, strict=True):
            print(f"{pad(label, width)} {link}")
    return 0
