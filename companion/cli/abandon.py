"""``binaryon abandon [GAME_ID]``: give up a game in progress; it stays in the history.
Refused while the daemon holds the journal: the game in progress is the daemon's."""

from __future__ import annotations

import argparse

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    journal_path,
    open_journal,
    parse_game_id,
    refuse_while_daemon_runs,
)
from companion.journal.api import JournalError
from companion.journal.rows import IN_PROGRESS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game_id", metavar="GAME_ID", nargs="?", help="default: the game in progress"
    )
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game_id = None if args.game_id is None else parse_game_id(args.game_id)
        refuse_while_daemon_runs(journal_path(args), "abandon a game")
        with open_journal(args, write=True) as journal:
            if game_id is None:
                saved = journal.current()
                if saved is None:
                    return fail("no game in progress")
                game_id = saved.game_id
            entry = journal.load(game_id)
            if entry is None:
                return fail(f"no game {game_id} in the journal (see binaryon history)")
            if entry.status != IN_PROGRESS:
                return fail(f"game {game_id} is {entry.status.replace('_', ' ')}, not in progress")
            journal.abandon(game_id)
    except JournalError as e:
        return fail(str(e))
    moves = f"{len(entry.moves)} move" + ("" if len(entry.moves) == 1 else "s")
    print(f"game {game_id} abandoned after {moves} (kept in history)")
    return 0
