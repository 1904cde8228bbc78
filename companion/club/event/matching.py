"""The maximum-weight matching the Dutch engine asks for again and again, each time after
changing a few weights: networkx's (exact on integer weights of any size)."""

from __future__ import annotations


class Matcher:
    """Weights on the pairs of ``n`` vertices (0: no edge) and a maximum-weight matching."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.w: dict[tuple[int, int], int] = {}

    def set(self, a: int, b: int, weight: int) -> None:
        key = (a, b) if a < b else (b, a)
        if weight:
            self.w[key] = weight
        else:
            self.w.pop(key, None)

    def solve(self) -> list[int]:
        """Each vertex's mate, itself when unmatched."""
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_weighted_edges_from((a, b, w) for (a, b), w in self.w.items())
        mate = list(range(self.n))
        for a, b in nx.max_weight_matching(g):
            mate[a], mate[b] = b, a
        return mate
