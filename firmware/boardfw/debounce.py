"""Per-square debounce: a new value counts once it has been stable for ``ms`` milliseconds."""

from boardfw.clock import ticks_diff

_NOTHING = ()  # the empty tuple is a constant: returning it allocates nothing


class Debouncer:
    def __init__(self, values, ms):
        self.reported = list(values)  # what the host has been told
        self.raw = list(values)  # what the last scan saw
        self.since = [0] * len(values)  # tick of the last raw change per square
        self.pending = {}  # squares whose raw value differs from the reported one
        self.ms = ms

    def seen(self, square, value, now):
        if self.raw[square] != value:
            self.raw[square] = value
            self.since[square] = now
            self.pending[square] = True

    def due(self, now):
        """Squares whose new value just became stable (sorted); their reported value is updated."""
        if not self.pending:
            return _NOTHING
        out = []
        for sq in list(self.pending):
            if self.raw[sq] == self.reported[sq]:
                del self.pending[sq]
            elif ticks_diff(now, self.since[sq]) >= self.ms:
                self.reported[sq] = self.raw[sq]
                del self.pending[sq]
                out.append(sq)
        out.sort()
        return out
