"""The matchings the Dutch engine asks for: a maximum-weight matching over some of the
players, asked again and again after a few weights change (networkx's, exact on integer
weights of any size), and whether some players can all be paired (greedily first, the
matching only when the greedy way leaves someone out)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Matcher:
    """Weights on the pairs of players: ``default(a, b)`` (a < b) unless set (0: no edge)."""

    def __init__(self, default: Callable[[int, int], int]) -> None:
        self.default = default
        self.w: dict[tuple[int, int], int] = {}

    def set(self, a: int, b: int, weight: int) -> None:
        self.w[(a, b) if a < b else (b, a)] = weight

    def get(self, a: int, b: int) -> int:
        key = (a, b) if a < b else (b, a)
        w = self.w.get(key)
        if w is None:
            w = self.w[key] = self.default(*key)
        return w

    def solve(
        self,
        vertices: Sequence[int],
        scale: int = 0,
        extra: dict[tuple[int, int], int] | None = None,
    ) -> dict[int, int]:
        """A maximum-weight matching of ``vertices``: each one's mate, itself when unmatched.
        With ``scale``, each weight is shifted up that many bits and ``extra`` (by pair,
        a < b) added below, to choose among the best matchings."""
        edges = []
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                w = self.get(a, b)
                if w:
                    if scale:
                        w = (w << scale) + extra.get((a, b) if a < b else (b, a), 0)
                    edges.append((a, b, w))
        return best_matching(vertices, edges)


def best_matching(
    vertices: Sequence[int], edges: list[tuple[int, int, int]], most: bool = False
) -> dict[int, int]:
    """networkx's maximum-weight matching (``most``: among those with the most pairs)."""
    import networkx as nx

    g = _graph()
    g.add_nodes_from(vertices)
    g.add_weighted_edges_from(edges)
    mate = {v: v for v in vertices}
    for a, b in nx.max_weight_matching(g, maxcardinality=most):
        mate[a], mate[b] = b, a
    return mate


def complete(
    vertices: Sequence[int], ok: Callable[[int, int], bool], alone_ok: Callable[[int], bool]
) -> bool:
    """Whether ``vertices`` can all be paired by ``ok``, but one ``alone_ok`` when they are
    odd in number."""
    left = list(vertices)
    mate: dict[int, int] = {}
    free: list[int] = []
    while left:
        v = left.pop(0)
        for k, u in enumerate(left):
            if ok(v, u):
                del left[k]
                mate[u], mate[v] = v, u
                break
        else:
            free.append(v)
    # mend the greedy pairing: a free player takes a paired one whose partner can take
    # another free player (or, the last one, whose partner may stay alone)
    mended = True
    while free and mended:
        mended = False
        for u in free:
            last = len(free) == 1 and len(vertices) % 2
            if last and alone_ok(u):
                return True
            for a in list(mate):
                if not ok(u, a):
                    continue
                b = mate[a]
                w = (
                    b
                    if last and alone_ok(b)
                    else next((w for w in free if w != u and ok(b, w)), None)
                )
                if w is None:
                    continue
                del mate[b]
                mate[u], mate[a] = a, u
                free.remove(u)
                if w != b:
                    mate[b], mate[w] = w, b
                    free.remove(w)
                else:
                    free.append(b)
                mended = True
                break
            if mended:
                break
    if not free or (len(free) == 1 and len(vertices) % 2 and alone_ok(free[0])):
        return True
    edges = [
        (a, b, 1 + (not alone_ok(a)) + (not alone_ok(b)))
        for i, a in enumerate(vertices)
        for b in vertices[i + 1 :]
        if ok(a, b)
    ]
    mate = best_matching(vertices, edges, most=True)
    alone = [v for v in vertices if mate[v] == v]
    return not alone or (len(alone) == 1 and alone_ok(alone[0]))


def _graph():
    """An empty networkx graph whose neighbour reads are plain dicts: the matching reads an
    edge's weight millions of times, and the read-only views cost a third of its time."""
    global _Plain
    if _Plain is None:
        import networkx as nx

        class Plain(nx.Graph):
            def __getitem__(self, n):
                return self._adj[n]

        _Plain = Plain
    return _Plain()


_Plain = None
