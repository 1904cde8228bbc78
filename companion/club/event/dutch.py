"""Who meets whom in a Swiss round by the FIDE Dutch system (C.04.3, the 2017 rules), the
project's own engine: by weighted matching, one score bracket at a time from the top.

Each pair of players gets a weight whose binary digits are the criteria in their order (as
the published descriptions of the Dutch system by weighted matching lay them out): the
highest digits that the whole round stays pairable with the bye to someone eligible (C.1-C.4),
then the most pairs and the highest scores paired in the bracket (C.5-C.6) and in the next
(C.7), the bye assignee's unplayed games (C.9), the colour criteria (C.10-C.13), the floats of
the last two rounds (C.14-C.19); the lowest digits are left for the bracket's order (S1, S2,
transpositions, exchanges), which is then fixed pair by pair, each time keeping the best
weight. The criteria and their order are FIDE's; bbpPairings (the FIDE-endorsed program)
pairs by the same principle, and ``benchmarks/event_crosscheck.py`` compares the two.

The matchings are networkx's (exact on integers of any size). Players are ``Entrant``s in
pairing-number order; the answer is the pairs, each (higher-ranked, lower-ranked), and the bye as
(player, None). Colours and the board order are ``swiss``'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.club.event.matching import Matcher, complete

DOWN, UP, NONE = "down", "up", "none"
SMALL = 24  # up to this many players left, every matching takes them all


@dataclass(frozen=True)
class Entrant:
    """What the pairing needs of a player: score in half points, their played games' colours
    (``w``/``b``), floats per round (``up``, ``down``, ``none``, oldest first), whether they may
    have the bye (no bye yet, no win without playing)."""

    score2: int
    colours: str
    floats: tuple[str, ...]
    bye_eligible: bool


class Unpairable(ValueError):
    """No pairing satisfies the absolute criteria."""


@dataclass(frozen=True)
class _Colour:
    """A player's colour preference in the terms the criteria use (C.04.3 A.6)."""

    preference: str | None
    imbalance: int
    repeated: str | None  # the colour of the last two games when they had one

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated is not None

    @property
    def strong(self) -> bool:
        return not self.absolute and self.imbalance > 0


def _colour(colours: str) -> _Colour:
    whites, blacks = colours.count("w"), colours.count("b")
    lower = "b" if whites > blacks else "w"
    imbalance = abs(whites - blacks)
    run = 0
    for c in reversed(colours):
        if c != colours[-1]:
            break
        run += 1
    last = colours[-1] if colours else None
    other = {"w": "b", "b": "w", None: None}[last]
    if imbalance > 1:
        preference = lower
    elif run > 1:
        preference = other
    elif imbalance > 0:
        preference = lower
    else:
        preference = other
    return _Colour(preference, imbalance, last if run > 1 else None)


def pair_round(
    entrants: Sequence[Entrant],
    met: set[tuple[int, int]],
    rounds_played: int,
    total_rounds: int,
) -> list[tuple[int, int | None]]:
    """The round's pairs by index into ``entrants`` (pairing-number order), each
    (higher-ranked, lower-ranked), the bye as (player, None). ``met``: index pairs (a < b)
    that played. Raises ``Unpairable`` when the absolute criteria leave no pairing."""
    return _Round(entrants, met, rounds_played, total_rounds).pair()


class _Round:
    """One round's pairing; players are numbered by rank (score, then pairing number)."""

    def __init__(
        self,
        entrants: Sequence[Entrant],
        met: set[tuple[int, int]],
        rounds_played: int,
        total_rounds: int,
    ) -> None:
        self.order = sorted(range(len(entrants)), key=lambda i: (-entrants[i].score2, i))
        rank = {p: v for v, p in enumerate(self.order)}
        self.e = [entrants[p] for p in self.order]
        self.score = [x.score2 for x in self.e]
        self.col = [_colour(x.colours) for x in self.e]
        self.met = {(min(rank[a], rank[b]), max(rank[a], rank[b])) for a, b in met}
        self.played = rounds_played
        # C.3's exception: in the last round a player above half the points may meet one with
        # the same absolute preference
        self.last_round = rounds_played >= total_rounds - 1
        n = len(self.e)
        self.n = n
        # the digits each score group takes: its size's bits, the lowest group lowest
        self.shift: dict[int, int] = {}
        total, biggest, i = 0, 0, n
        while i > 0:
            j = i
            while j > 0 and self.score[j - 1] == self.score[i - 1]:
                j -= 1
            self.shift[self.score[i - 1]] = total
            total += (i - j).bit_length()
            biggest = max(biggest, i - j)
            i = j
        self.S = total
        self.B = biggest.bit_length()
        self.bye_score = 0
        self.single = False
        self.unplayed_rank: dict[int, int] = {}
        digits = self.B * 12 + self.S * 4 + 1
        if self.played:
            digits += 2 * self.B + 2 * self.S
        if self.played > 1:
            digits += 2 * self.B + 2 * self.S
        self.fixed = (1 << (digits + 2)) - 1  # a pair fixed: more than any open one

    # ------------------------------------------------------------------ the criteria

    def compatible(self, a: int, b: int) -> bool:
        """C.1 and C.3: not met before; not both with one absolute colour preference (but
        for a top scorer in the last round)."""
        if (min(a, b), max(a, b)) in self.met:
            return False
        ca, cb = self.col[a], self.col[b]
        return (
            not ca.absolute
            or not cb.absolute
            or ca.preference != cb.preference
            or (self.last_round and (self.score[a] > self.played or self.score[b] > self.played))
        )

    def bye_candidate(self, v: int) -> bool:
        return self.e[v].bye_eligible and self.score[v] <= self.bye_score

    def float_of(self, v: int, back: int) -> str:
        floats = self.e[v].floats
        return floats[-back] if len(floats) >= back else NONE

    def colour_fields(self, h: int, lo: int) -> tuple[bool, bool, bool, bool]:
        """C.10-C.13 met by the pair: no colour difference beyond 2 (C.10), no colour three
        times running (C.11), no preference left unmet (C.12), no strong one (C.13)."""
        p, o = self.col[lo], self.col[h]
        differ = p.preference != o.preference
        if p.imbalance == o.imbalance:
            repeat = p.repeated is None or p.repeated != o.repeated
        else:
            narrower = o if p.imbalance > o.imbalance else p
            repeat = narrower.repeated != {"w": "b", "b": "w", None: None}[p.preference]
        return (
            p.imbalance < 2 or o.imbalance < 2 or differ,
            not p.absolute or not o.absolute or differ or repeat,
            differ or p.preference is None or o.preference is None,
            (not p.strong and not p.absolute)
            or (not o.strong and not o.absolute)
            or (p.absolute and o.absolute)
            or differ,
        )

    def weight(self, h: int, lo: int, current: bool, nxt: bool, single: bool) -> int:
        """The pair's weight, ``h`` ranked above ``lo``: ``current``: ``lo`` is in the bracket
        being paired; ``nxt``: in the next score group."""
        if not self.compatible(h, lo):
            return 0
        B, S, sh, sc = self.B, self.S, self.shift, self.score
        w = 1 + (not self.bye_candidate(h)) + (not self.bye_candidate(lo))
        # C.5/C.6: pairs and the scores paired in this bracket; C.7: in the next
        w = (w << B) + current
        w <<= S
        if current:
            w += 1 << sh[sc[h]]
        w = (w << B) + nxt
        w <<= S
        if nxt:
            w += 1 << sh[sc[h]]
        # C.9: the bye assignee's unplayed games
        w <<= 2 * B
        if single:
            if sc[h] == self.bye_score:
                w += self.unplayed_rank[len(self.e[h].colours)]
            if sc[lo] == self.bye_score:
                w += self.unplayed_rank[len(self.e[lo].colours)]
        # C.10-C.13: colours
        for ok in self.colour_fields(h, lo) if current else (False,) * 4:
            w = (w << B) + ok
        # C.14-C.19: floats one and two rounds back
        for back in (1, 2)[: min(self.played, 2)]:
            w <<= B
            if current:
                w += self.float_of(lo, back) == DOWN
                w += sc[h] <= sc[lo] and self.float_of(h, back) == DOWN
            w <<= B
            if current:
                w += not (sc[h] > sc[lo] and self.float_of(lo, back) == UP)
        for back in (1, 2)[: min(self.played, 2)]:
            w <<= S
            if current:
                w += (self.float_of(lo, back) == DOWN) << sh[sc[lo]]
                w += (self.float_of(h, back) == DOWN) << sh[sc[h]]
            w <<= S
            if current and not (self.float_of(lo, back) == UP and sc[h] > sc[lo]):
                w += 1 << sh[sc[h]]
        # room for the bracket's order
        return w << (3 * B + 1)

    # ------------------------------------------------------------------ the procedure

    def pair(self) -> list[tuple[int, int | None]]:
        n = self.n
        if n == 0:
            return []
        everyone = list(range(n))
        if n % 2 == 0:
            if not complete(everyone, self.compatible, lambda v: False):
                raise Unpairable("only with a rematch or a colour beyond its limits")
        else:
            self._bye_score()
        single = self.single
        m = Matcher(lambda a, b: self.weight(a, b, False, False, single))
        partner = self._brackets(m)
        out: list[tuple[int, int | None]] = []
        for v in range(n):
            u = partner.get(v)
            if u is None:
                out.append((self.order[v], None))
            elif v < u:
                out.append((self.order[v], self.order[u]))
        return out

    def _bye_score(self) -> None:
        """The score of the bye (the lowest score group that can give it with the rest all
        paired) and what C.9 needs of it."""
        n, sc = self.n, self.score
        found = None
        for v in range(n - 1, -1, -1):
            rest = [u for u in range(n) if u != v]
            if self.e[v].bye_eligible and complete(rest, self.compatible, lambda u: False):
                found = sc[v]
                break
        if found is None:
            if not any(x.bye_eligible for x in self.e):
                raise Unpairable("only with the bye for a player who had it or won by forfeit")
            raise Unpairable("only with a rematch, a colour beyond its limits or a second bye")
        self.bye_score = found
        top = sc[0]
        self.single = found >= top  # one score group: it pairs within itself
        if found >= top and sc[-1] < top:
            # the bye from the top score group: C.9 applies to it when it can be paired
            # within itself (the matching says)
            m = Matcher(lambda a, b: 0)
            for p in range(n):
                for o in range(p):
                    w = 0
                    if self.compatible(p, o):
                        w = 1 + (not self.e[p].bye_eligible) + (not self.e[o].bye_eligible)
                        w = (w << self.S) + self.shift[sc[p]] + self.shift[sc[o]]
                        w = (w << self.B) + (sc[p] >= top)
                    m.set(p, o, w)
            mate = m.solve(range(n))
            self.single = all(sc[mate[v]] >= top for v in range(n) if sc[v] >= top)
        counts = sorted((len(self.e[v].colours) for v in range(n) if sc[v] == found), reverse=True)
        for r, c in enumerate(counts):
            self.unplayed_rank[c] = r

    def _active(self, group: list[int], end: int, below: list[int]) -> list[int]:
        """The players the bracket's matchings need: the bracket alone when it pairs within
        itself and the rest pairs too (then every best pairing does so); else the next score
        group with enough players below it to take the floaters, the rest pairing alone;
        else everyone left."""
        rest_of = group[end:] + below
        everyone = group + below
        odd = self.n % 2
        if len(everyone) <= SMALL or (odd and below and self.bye_score >= self.score[group[-1]]):
            # (with the bye in the next score group, C.9 needs its pairing when more follow)
            return everyone
        bracket = group[:end]
        nobody = lambda v: False  # noqa: E731
        if (
            len(bracket) % 2 == 0
            and complete(bracket, self.compatible, nobody)
            and complete(rest_of, self.compatible, self.bye_candidate)
        ):
            return bracket
        take = SMALL // 2
        if (len(group) + take) % 2:
            take += 1
        near, far = below[:take], below[take:]
        if (
            far
            and (not odd or self.bye_score < self.score[group[end]])
            and complete(far, self.compatible, self.bye_candidate)
        ):
            return group + near
        return everyone

    def _brackets(self, m: Matcher) -> dict[int, int]:
        """The brackets from the top, each fixed before the next: moved-down players paired
        where they can be (the highest first), then the rest as S1 against S2 with the fewest
        and smallest exchanges."""
        n, sc = self.n, self.score
        partner: dict[int, int] = {}
        group = [v for v in range(n) if sc[v] >= sc[0]]
        nxt_at = len(group)
        matched = [False] * n
        begin = 0  # moved-down players in the bracket
        begin_v = 0  # the first vertex of the bracket's own score group
        while len(group) > 1 or nxt_at < n:
            end = len(group)  # the bracket is group[:end]; the next score group after it
            end_v = begin_v + (end - begin)
            sg_at = nxt_at
            while nxt_at < n and sc[nxt_at] >= sc[sg_at]:
                group.append(nxt_at)
                nxt_at += 1
            active = self._active(group, end, list(range(nxt_at, n)))
            reach = len(group) if len(active) > end else end
            base: dict[tuple[int, int], int] = {}
            for big in range(begin, reach):
                for small in range(big):
                    w = self.weight(group[small], group[big], big < end, big >= end, self.single)
                    base[big, small] = w
                    m.set(group[big], group[small], w)
            mate = self._bracket(m, group, begin, end, begin_v, end_v, base, matched, active)
            # the next bracket: who is left here comes down
            moved: list[int] = []
            begin = 0
            self.single = bool(n % 2 and sg_at < n and self.bye_score >= sc[sg_at])
            for k, v in enumerate(group):
                if k < end and matched[v]:
                    partner[v] = mate[v]
                    partner[mate[v]] = v
                    continue
                moved.append(v)
                begin += k < end
                if self.single and sc[mate.get(v, v)] < sc[sg_at]:
                    self.single = False
            group = moved
            begin_v = end_v
        return partner

    def _bracket(
        self,
        m: Matcher,
        group: list[int],
        begin: int,
        end: int,
        begin_v: int,
        end_v: int,
        base: dict[tuple[int, int], int],
        matched: list[bool],
        active: list[int],
    ) -> dict[int, int]:
        """One bracket, ``group[:end]`` (``group[:begin]`` moved down into it), paired and
        fixed; the last matching's mates."""
        B = self.B

        def order_weight(small: int, big: int, s1_index: int, s1_size: int) -> int:
            w = base.get((big, small), 0)
            if w:
                w += (((s1_index < s1_size) << (2 * B)) - s1_index) << 1
            return w

        def in_own(u: int) -> bool:
            return begin_v <= u < end_v

        def fix(a: int, b: int) -> None:
            matched[a] = matched[b] = True
            active[:] = [u for u in active if u != a and u != b]
            fixed[a], fixed[b] = b, a

        def settle(rest: list[int], mate: dict[int, int]) -> None:
            # S1 and S2 as the matching made them: no pair within S1, none within S2
            for a_at, small in enumerate(rest):
                v = group[small]
                forward = v < mate[v] < end_v
                for big in rest[a_at + 1 :]:
                    u = group[big]
                    if not forward or u < mate[u] < end_v:
                        base[big, small] = 0
                    m.set(v, u, base[big, small])

        fixed: dict[int, int] = {}
        sc = self.score
        guessed = -1  # S1's size the first matching was asked with, if it was
        chosen = None  # the first matching, when it chose the moved-down players' opponents
        half = end // 2

        def in_order() -> bool:
            """S1 against S2 in order are all compatible and meet every colour criterion."""
            return all(
                self.compatible(group[k], group[k + half])
                and all(self.colour_fields(group[k], group[k + half]))
                for k in range(half)
            )

        if not begin and end % 2 == 0 and len(active) == end and in_order():
            # a homogeneous bracket that pairs within itself, S1 against S2 in order
            # meeting every colour criterion: no pairing is better, and this one comes first
            for k in range(half):
                fix(group[k], group[k + half])
            return dict(fixed)
        last = group[end - 1]
        if (
            not begin
            and end % 2
            and len(active) == end
            and self.bye_candidate(last)
            and len(self.e[last].colours) == max(len(self.e[v].colours) for v in group[:end])
            and DOWN not in self.e[last].floats[-2:]
            and in_order()
        ):
            # the last bracket, odd: the same with its lowest player left for the bye when
            # that costs no criterion (C.9: no fewer games played; no float down again)
            for k in range(half):
                fix(group[k], group[k + half])
            return dict(fixed)
        if not begin:
            # a homogeneous bracket: first as if it made all the pairs it can, with no
            # exchange, S1's opponents chosen in the same matching
            bits = end.bit_length()
            extra = {}
            for b_at in range(end):
                for a_at in range(b_at):
                    m.set(group[a_at], group[b_at], order_weight(a_at, b_at, a_at, half))
            for at in range(half):
                for bonus, big in enumerate(range(end - 1, at, -1)):
                    if base[big, at]:
                        extra[group[at], group[big]] = bonus << (bits * (half - 1 - at))
            mate = m.solve(active, bits * half, extra)
            if all(group[k] < mate[group[k]] < end_v for k in range(half)):
                settle(list(range(end)), mate)
                for k in range(half):
                    fix(group[k], mate[group[k]])
                mate.update(fixed)
                return mate
            # still a best matching (the order's digits lie below the criteria's), and the
            # one the order asks for when S1 is as guessed
            guessed = half
        if begin:
            # among the best matchings, one that pairs the moved-down players from the top,
            # each with the highest opponent it can: what the steps below look for
            # (first who is paired, the highest first; then their opponents, in that order)
            bits = (end - begin + 1).bit_length()
            extra = {}
            for i in range(begin):
                paired = 1 << (begin - 1 - i + bits * begin)
                for bonus, k in enumerate(range(end - 1, begin - 1, -1)):
                    if base[k, i]:
                        extra[group[i], group[k]] = paired + (bonus << (bits * (begin - 1 - i)))
            mate = m.solve(active, bits * begin + begin, extra)
            chosen = mate
        # the moved-down players to pair here, the highest first (C.5, C.6)
        left = left_paired = 0
        md_score = None
        for i in range(begin):
            v = group[i]
            if md_score is None or sc[v] < md_score:
                md_score = sc[v]
                left = left_paired = 0
                j = i
                while j < len(group) and sc[group[j]] >= md_score:
                    left += 1
                    left_paired += in_own(mate[group[j]])
                    j += 1
            if not left_paired:
                continue
            if left <= left_paired:
                matched[v] = True
                continue
            left -= 1
            if not in_own(mate[v]):
                for k in range(begin, end):
                    if base[k, i]:
                        m.set(v, group[k], base[k, i] | 1)
                mate = m.solve(active)
            if in_own(mate[v]):
                matched[v] = True
                left_paired -= 1
                for k in range(begin, end):
                    if base[k, i]:
                        m.set(v, group[k], (base[k, i] | (end - begin)) + 1)
        # their opponents: the highest possible for each, the highest moved-down first
        downs = [i for i in range(begin) if matched[group[i]]]
        if (
            downs
            and mate is not chosen
            and not _greedy(
                [(group[i], [group[k] for k in range(begin, end) if base[k, i]]) for i in downs],
                mate,
            )
        ):
            bits = (end - begin + 1).bit_length()
            extra: dict[tuple[int, int], int] = {}
            for at, i in enumerate(downs):
                v, bonus = group[i], 0
                for k in range(end - 1, begin - 1, -1):
                    if base[k, i]:
                        u = group[k]
                        extra[min(u, v), max(u, v)] = bonus << (bits * (len(downs) - 1 - at))
                        bonus += 1
            mate = m.solve(active, bits * len(downs), extra)
        for i in downs:
            fix(group[i], mate[group[i]])
        # the remainder: S1 the first as many as it makes pairs
        rest: list[int] = []
        s1 = 0
        for k in range(begin, end):
            v = group[k]
            if mate[v] < begin_v:
                continue
            rest.append(k)
            s1 += mate[v] < v
        for b_at, big in enumerate(rest):
            for a_at, small in enumerate(rest[:b_at]):
                m.set(group[small], group[big], order_weight(small, big, a_at, s1))
        if s1 and s1 == guessed:
            pass  # the matching above was this one, S1 as guessed; exchanges are needed
        elif s1:
            # first as if no exchange were needed, S1's opponents chosen in the same matching
            bits = len(rest).bit_length()
            extra = {}
            for at, small in enumerate(rest[:s1]):
                for bonus, big in enumerate(reversed(rest)):
                    if big > small and base[big, small]:
                        extra[group[small], group[big]] = bonus << (bits * (s1 - 1 - at))
            tried = m.solve(active, bits * s1, extra)
            if all(group[k] < tried[group[k]] < end_v for k in rest[:s1]):
                settle(rest, tried)
                for k in rest[:s1]:
                    fix(group[k], tried[group[k]])
                tried.update(fixed)
                return tried
        if s1 != guessed and not all(group[k] < mate[group[k]] < end_v for k in rest[:s1]):
            # some of S1 are not paired in S2: the fewest and smallest exchanges
            mate = m.solve(active)
        mate.update(fixed)

        def in_s2_pair(v: int) -> bool:
            return v < mate[v] < end_v

        exchanges = sum(not in_s2_pair(group[k]) for k in rest[:s1])
        # the exchanges from S1: its lowest players first
        todo = exchanges
        for at in range(s1 - 1, -1, -1):
            if not todo:
                break
            v = group[rest[at]]
            if in_s2_pair(v):
                for k in rest[at + 1 :]:
                    w = order_weight(rest[at], k, at, s1)
                    if w:
                        m.set(v, group[k], w - 1)
                mate = m.solve(active)
                mate.update(fixed)
            out = not in_s2_pair(v)
            todo -= out
            for k in rest[at + 1 :]:
                if out:
                    base[k, rest[at]] = 0
                m.set(v, group[k], order_weight(rest[at], k, at, s1))
        # the exchanges from S2: its highest players first
        todo = exchanges
        for at in range(s1, len(rest)):
            if todo <= 1:
                break
            v = group[rest[at]]
            already = in_s2_pair(v)
            if not already:
                for k in rest[at + 1 :]:
                    w = order_weight(rest[at], k, at, s1)
                    if w:
                        m.set(v, group[k], w + 1)
                mate = m.solve(active)
                mate.update(fixed)
            if in_s2_pair(v):
                todo -= 1
                for k in rest[:at]:
                    base[rest[at], k] = 0
                    m.set(v, group[k], 0)
                for k in range(end, len(group)):
                    base[k, rest[at]] = 0
                    m.set(v, group[k], 0)
            if not already:
                for k in rest[at + 1 :]:
                    m.set(v, group[k], order_weight(rest[at], k, at, s1))
        settle(rest, mate)
        # S1's opponents, each the highest possible in S2 (transpositions), S1 from the top
        firsts = [k for k in rest if in_s2_pair(group[k])]
        if firsts and not _greedy(
            [(group[a], [group[b] for b in rest if b > a and base[b, a]]) for a in firsts],
            mate,
        ):
            bits = len(rest).bit_length()
            extra = {}
            for at, small in enumerate(firsts):
                v, bonus = group[small], 0
                for big in reversed(rest):
                    if big <= small:
                        continue
                    if base[big, small]:
                        u = group[big]
                        extra[v, u] = bonus << (bits * (len(firsts) - 1 - at))
                    bonus += 1
            mate = m.solve(active, bits * len(firsts), extra)
        for small in firsts:
            fix(group[small], mate[group[small]])
        mate.update(fixed)
        return mate


def _greedy(choosers: list[tuple[int, list[int]]], mate: dict[int, int]) -> bool:
    """Whether ``mate`` gives each chooser, in order, the first of their candidates (best
    first) that an earlier one did not take: then no matching does better for them."""
    taken: set[int] = set()
    for v, candidates in choosers:
        first = next((u for u in candidates if u not in taken), None)
        if first is None or mate[v] != first:
            return False
        taken.add(first)
    return True
