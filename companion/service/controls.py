"""The buttons and the typed commands: confirm, undo (long: a round), menu (hints; long: the
new-game menu, whose last entry shows the pages' QR codes), and the simulator's words."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from companion import PROGRAM
from companion.games.options import rule_pairs
from companion.journal.api import Journal
from companion.referee.session import Session
from companion.referee.verdict import Verdict
from companion.service.menu import NewGameMenu
from companion.views.presenter import Notices

log = logging.getLogger(PROGRAM)

PAGES = "pages"  # the menu's last entry when the web pages are served: their QR codes
CLUB = "club"  # with a club's broker: the link's state in one line
REVIEW = "review"  # the menu's entry once the game on the board is over: its review, stepped
RESUME = "resume:"  # the menu's entries for paused games: "resume:12"
MENU_PAUSED = 9  # the latest paused games the menu offers


class ControlsHost(Protocol):
    """What the buttons and the typed commands act on (the daemon)."""

    menu: NewGameMenu
    notices: Notices
    journal: Journal  # its paused games, for the menu
    web: Any  # the web server, when the pages are served
    web_backend: Any  # the players' tokens, for the pages' QR codes
    web_problem: str  # why the pages are off when they should be served
    club_status: str  # the club link's state in one line ("" with no club)
    review_steps: Any  # a finished game's review stepped through (service/review_steps.py)
    push_to_talk: Any  # voice/push_to_talk.py's PushToTalk while listening with one, else None

    @property
    def session(self) -> Session: ...

    @property
    def status(self) -> str: ...

    def say(self, text: str, lasting: bool = False) -> None: ...

    def confirm(self) -> bool:
        """The confirm button for the game; False when it means nothing now."""

    def undo(self, long: bool) -> None: ...

    def recover(self) -> None:
        """Hold confirm: the game's position on the LEDs and the way out said in words."""

    def hint(self) -> None: ...

    def submit(self, name: str, player: str | None) -> Verdict: ...

    def new_game(
        self, game: str | None = None, options: dict[str, Any] | None = None, keep: bool = False
    ) -> None:
        """Start a game; ``keep``: the game in progress is paused, not abandoned."""

    def resume_game(self, game_id: int) -> None: ...

    def recheck_board(self) -> None:
        """Look at a sensor board again (what happened on it while the menu was open)."""


class Controls:
    def __init__(self, host: ControlsHost):
        self.host = host
        self._pages: list[tuple[str, str]] = []  # the QR codes the menu shows, when served
        self._page = 0
        self.titles: dict[str, str] = {REVIEW: "REVIEW GAME"}  # its entries' titles

    def button(self, name: str, long: bool = False) -> None:
        if self._talk(name, long):
            return
        if self.host.review_steps.active and not self.host.menu.is_open:
            self.host.review_steps.button(name, long)
            return
        if self.host.menu.is_open:
            self._menu_button(name, long)
            return
        if name == "confirm" and long:  # recovery: the position on the LEDs, the way out
            self.host.recover()
        elif name == "confirm":
            if self.host.status:
                self.host.say(self.host.status)
            elif not self.host.confirm():
                self.host.say("nothing to confirm")
        elif name == "undo":
            self.host.notices.refused = None
            self.host.undo(long)
        elif name == "menu":
            if long:
                self.open_menu()
            else:
                self.host.hint()
        else:
            log.warning("unknown button %r", name)

    def _talk(self, name: str, long: bool) -> bool:
        """Is this press the push-to-talk button's? Its hold is the microphone's; a tap of
        the menu button with nothing said is still the hint (README, "Voice")."""
        ptt = self.host.push_to_talk
        if name == "talk":
            return True  # a button for talking only
        if ptt is None or ptt.button != name:
            return False
        return long or ptt.talked

    def open_menu(self) -> None:
        """The new-game menu (hold menu; "open the menu" by voice)."""
        pages = (PAGES,) if self.host.web or self.host.web_problem else ()
        club = (CLUB,) if self.host.club_status else ()
        review = (REVIEW,) if self.host.review_steps.offered() else ()
        extra = review + self._paused() + pages + club
        self.host.menu.open(self.host.session.game, extra=extra)
        self.host.say("menu: next, confirm: start, undo: back", lasting=True)

    def _menu_button(self, name: str, long: bool) -> None:
        """The new-game menu: menu steps through the games (and, when the pages are served,
        their QR codes), confirm starts, undo goes back."""
        if self.host.notices.qr is not None:
            if name == "menu" and not long:
                self._page = (self._page + 1) % len(self._pages)
                self.host.notices.qr = self._pages[self._page]
                return
            self.host.notices.qr = None
            self.host.menu.close()
            self.host.say("menu closed")
            return
        if name == "menu" and not long:
            self.host.menu.step()
            return
        chosen = self.host.menu.chosen
        if name == "confirm" and chosen == PAGES:
            if self.host.web is None:  # they should be served but could not be: say why
                self.host.menu.close()
                self.host.say(self.host.web_problem, lasting=True)
                return
            self._show_pages()
            return
        self.host.menu.close()
        if name == "confirm" and chosen == REVIEW:
            self.host.review_steps.start()
            return
        if name == "confirm" and chosen == CLUB:
            self.host.say(self.host.club_status)
            return
        if name == "confirm" and chosen.startswith(RESUME):
            self.host.resume_game(int(chosen[len(RESUME) :]))
            return
        if name == "confirm":
            self.host.new_game(chosen, keep=True)  # the game in progress is paused
            return
        self.host.say("menu closed")
        self.host.recheck_board()  # what happened meanwhile

    def _paused(self) -> tuple[str, ...]:
        """The menu's entries for the paused games (latest first), to take one up again."""
        try:
            entries = self.host.journal.paused(MENU_PAUSED)
        except Exception as e:  # a journal that cannot be read: the menu still opens
            log.warning("paused games: %s", e)
            return ()
        paused = {f"{RESUME}{e.id}": f"RESUME #{e.id} {e.game.upper()}" for e in entries}
        self.titles = {REVIEW: "REVIEW GAME", **paused}
        return tuple(paused)

    def _show_pages(self) -> None:
        """QR codes of the table page and each player's page, one per menu press."""
        from companion.views.web.invite import invite_json

        links = invite_json(self.host.web.base_url(), self.host.web_backend.tokens())
        session = self.host.session
        label = session.spec.player_label
        # a page belongs to a seat: labelled by the player it plays now (a swap changes it)
        self._pages = [("TABLE", links["table"])] + [
            (label(session.state.player_of(seat)), url) for seat, url in links["players"].items()
        ]
        self._page = 0
        self.host.notices.qr = self._pages[0]

    def command(self, text: str) -> None:
        words = text.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        if verb == "new":
            self._new(args)
        elif verb == "resume":
            if len(args) != 1 or not args[0].lstrip("#").isdigit():
                self.host.say("resume: give a paused game's number")
            else:
                self.host.resume_game(int(args[0].lstrip("#")))
        elif verb == "move":
            self._named_move(args)
        elif verb == "talk":
            self._typed_talk(args)
        elif verb in ("confirm", "undo", "menu"):
            if args and args != ["long"]:
                self.host.say(f"{verb}: only 'long' may follow")
            else:
                self.button(verb, long=bool(args))
        else:
            self.host.say(f"{verb}: unknown command")

    def _typed_talk(self, args: list[str]) -> None:
        """``talk``: the simulator's push-to-talk button, held until ``talk`` is typed again."""
        ptt = self.host.push_to_talk
        if args:
            self.host.say("talk: nothing may follow")
        elif ptt is None:
            self.host.say("talk: no push-to-talk ([voice] push_to_talk, listening on)")
        elif ptt.held:
            ptt.release()
            self.host.say("talk: let go")
        else:
            ptt.press()
            self.host.say("talk: held; say a command, then type talk again", lasting=True)

    def _new(self, args: list[str]) -> None:
        """``new [GAME] [OPTION=VALUE ...]``: the command line's and config's options, with
        those given here over them."""
        game = args[0] if args and "=" not in args[0] else None
        pairs = args[1:] if game else args
        if any("=" not in p for p in pairs):
            self.host.say("new: one game name, then OPTION=VALUE")
            return
        try:
            options = rule_pairs(pairs, "new")
        except ValueError as e:
            self.host.say(str(e))
            return
        self.host.new_game(game, options or None, keep=True)

    def _named_move(self, args: list[str]) -> None:
        """``move NAME [as PLAYER]``: a move in the game's notation, as a player's page sends
        it (for games whose moves are not presses: Binome's sheets, Wythe's swap). A move
        that does not name its player is the typing player's (``typing_player``). The
        terminal is that player's page: a refusal meant for the page is said with its
        reason."""
        player = None
        if len(args) >= 2 and args[-2] == "as":
            player, args = args[-1], args[:-2]
        if not args:
            self.host.say("move: name a move, e.g. move pass")
            return
        state = self.host.session.state
        if player is not None:
            named = [p for p in state.players if p.lower() == player.lower()]
            if not named:
                self.host.say(f"move: no player {player!r}")
                return
            player = named[0]
        if self.host.status:
            self.host.say(self.host.status)
            return
        name = " ".join(args)
        if player is None and _unnamed(state, name):
            player = typing_player(state)
        verdict = self.host.submit(name, player)
        if verdict.page is not None and verdict.refusal is not None:
            refusal = verdict.refusal
            actor = _actor(state, name, player) or verdict.page[0]
            told = refusal.reason
            if not told.lower().startswith(actor.lower()):
                told = f"{self.host.session.spec.player_label(actor)}: {told}"
            if refusal.confirm:
                told += f" (to confirm: {refusal.confirm})"
            self.host.say(told)


def typing_player(state: Any) -> str | None:
    """Whose move a typed move without a player's name is: the only person playing (the
    others are the companion's virtual players), else the first in seat order who is to act
    now (the player on turn)."""
    people = [p for p in state.players if p not in state.virtual]
    if len(people) == 1:
        return people[0]
    acting = [p for p in people if p in state.to_act]
    return acting[0] if acting else state.turn


def _unnamed(state: Any, name: str) -> bool:
    """Is ``name`` a move of the game's notation that leaves out whose it is?"""
    try:
        move = state.parse_move(name)
    except ValueError:
        return False
    return state.actor(move) is None and move.by("") is not move


def _actor(state: Any, name: str, player: str | None) -> str | None:
    """Who plays ``name`` entered by ``player`` (None when it cannot be read)."""
    try:
        move = state.parse_move(name)
    except ValueError:
        return None
    return state.actor(move.by(player) if player is not None else move)
