"""The buttons and the typed commands: confirm, undo (long: a round), menu (hints; long: the
new-game menu, whose last entry shows the pages' QR codes), and the simulator's words."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.service.daemon import Daemon

log = logging.getLogger("binaryon")

PAGES = "pages"  # the menu's last entry when the web pages are served: their QR codes
RESUME = "resume:"  # the menu's entries for paused games: "resume:12"
MENU_PAUSED = 9  # the latest paused games the menu offers


class Controls:
    def __init__(self, daemon: Daemon):
        self.daemon = daemon
        self._pages: list[tuple[str, str]] = []  # the QR codes the menu shows, when served
        self._page = 0
        self.titles: dict[str, str] = {}  # the menu's titles of its paused games

    def button(self, name: str, long: bool = False) -> None:
        if self.daemon.menu.is_open:
            self._menu_button(name, long)
            return
        if name == "confirm":
            if self.daemon.status:
                self.daemon.set_message(self.daemon.status)
            elif not self.daemon.referee.button("confirm"):
                self.daemon.set_message("nothing to confirm")
        elif name == "undo":
            self.daemon.notices.refused = None
            self.daemon.referee.undo(long)
        elif name == "menu":
            if long:
                pages = (PAGES,) if self.daemon.web or self.daemon.web_problem else ()
                self.daemon.menu.open(self.daemon.session.game, extra=self._paused() + pages)
                self.daemon.set_message("menu: next, confirm: start, undo: back", lasting=True)
            else:
                self.daemon.feedback.next_hint()
        else:
            log.warning("unknown button %r", name)

    def _menu_button(self, name: str, long: bool) -> None:
        """The new-game menu: menu steps through the games (and, when the pages are served,
        their QR codes), confirm starts, undo goes back."""
        if self.daemon.notices.qr is not None:
            if name == "menu" and not long:
                self._page = (self._page + 1) % len(self._pages)
                self.daemon.notices.qr = self._pages[self._page]
                return
            self.daemon.notices.qr = None
            self.daemon.menu.close()
            self.daemon.set_message("menu closed")
            return
        if name == "menu" and not long:
            self.daemon.menu.step()
            return
        chosen = self.daemon.menu.chosen
        if name == "confirm" and chosen == PAGES:
            if self.daemon.web is None:  # they should be served but could not be: say why
                self.daemon.menu.close()
                self.daemon.set_message(self.daemon.web_problem, lasting=True)
                return
            self._show_pages()
            return
        self.daemon.menu.close()
        if name == "confirm" and chosen.startswith(RESUME):
            self.daemon.resume_game(int(chosen[len(RESUME) :]))
            return
        if name == "confirm":
            self.daemon.new_game(chosen)
            return
        self.daemon.set_message("menu closed")
        settler = self.daemon.settler
        if self.daemon.board.kind != "switch" and settler.known:
            self.daemon.board_settled(tuple(settler.readings))  # what happened meanwhile

    def _paused(self) -> tuple[str, ...]:
        """The menu's entries for the paused games (latest first), to take one up again."""
        paused = getattr(self.daemon.journal, "paused", None)
        if paused is None:
            return ()
        try:
            entries = paused(MENU_PAUSED)
        except Exception as e:  # a journal that cannot be read: the menu still opens
            log.warning("paused games: %s", e)
            return ()
        self.titles = {f"{RESUME}{e.id}": f"RESUME #{e.id} {e.game.upper()}" for e in entries}
        return tuple(self.titles)

    def _show_pages(self) -> None:
        """QR codes of the table page and each player's page, one per menu press."""
        from companion.views.web.invite import invite_json

        links = invite_json(self.daemon.web.base_url(), self.daemon.web_backend.tokens())
        session = self.daemon.session
        label = session.spec.player_label
        # a page belongs to a seat: labelled by the player it plays now (a swap changes it)
        self._pages = [("TABLE", links["table"])] + [
            (label(session.state.player_of(seat)), url) for seat, url in links["players"].items()
        ]
        self._page = 0
        self.daemon.notices.qr = self._pages[0]

    def command(self, text: str) -> None:
        words = text.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        if verb == "new":
            self._new(args)
        elif verb == "resume":
            if len(args) != 1 or not args[0].lstrip("#").isdigit():
                self.daemon.set_message("resume: give a paused game's number")
            else:
                self.daemon.resume_game(int(args[0].lstrip("#")))
        elif verb == "move":
            self._named_move(args)
        elif verb in ("confirm", "undo", "menu"):
            if args and args != ["long"]:
                self.daemon.set_message(f"{verb}: only 'long' may follow")
            else:
                self.button(verb, long=bool(args))
        else:
            self.daemon.set_message(f"{verb}: unknown command")

    def _new(self, args: list[str]) -> None:
        """``new [GAME] [OPTION=VALUE ...]``: the command line's and config's options, with
        those given here over them."""
        from companion.cli.rule_args import rule_pairs

        game = args[0] if args and "=" not in args[0] else None
        pairs = args[1:] if game else args
        if any("=" not in p for p in pairs):
            self.daemon.set_message("new: one game name, then OPTION=VALUE")
            return
        try:
            options = rule_pairs(pairs)
        except ValueError as e:
            self.daemon.set_message(str(e).replace("--rule", "new", 1))
            return
        self.daemon.new_game(game, options or None)

    def _named_move(self, args: list[str]) -> None:
        """``move NAME [as PLAYER]``: a move in the game's notation, as a player's page sends
        it (for games whose moves are not presses: Binome's sheets, Wythe's swap)."""
        player = None
        if len(args) >= 2 and args[-2] == "as":
            player, args = args[-1], args[:-2]
        if not args:
            self.daemon.set_message("move: name a move, e.g. move pass")
            return
        if player is not None and player not in self.daemon.session.state.players:
            self.daemon.set_message(f"move: no player {player!r}")
            return
        if self.daemon.status:
            self.daemon.set_message(self.daemon.status)
            return
        self.daemon.referee.submit_name(" ".join(args), player)
