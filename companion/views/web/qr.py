"""QR codes of invite URLs, sized for the 128x64 OLED.

The smallest QR version that holds the URL is used (version 2, 25x25, for short URLs; a LAN
player URL with its token needs version 3, 29x29), drawn at the largest whole scale that fits
64 pixels with a quiet zone of at least one module. On the OLED a lit pixel is the light colour
of the code, so ``qr_image`` lights the light modules and the quiet zone.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from PIL import Image

MIN_QUIET = 1  # modules; the standard asks for 4, phone readers cope with 1 on a lit panel
MAX_QUIET = 4


class QRTooBig(ValueError):
    """The URL needs a code too big for the pixels available."""


@dataclass(frozen=True)
class QRCode:
    matrix: tuple[tuple[bool, ...], ...]  # True = dark module, quiet zone included
    version: int
    scale: int  # pixels per module in ``image``
    quiet: int  # modules of quiet zone on each side in ``matrix``

    @property
    def size(self) -> int:
        return len(self.matrix)


def qr_code(url: str, pixels: int = 64) -> QRCode:
    """The code for ``url`` laid out for a square of ``pixels`` per side."""
    code = segno.make(url, error="l", boost_error=True, micro=False)
    n = code.symbol_size(border=0)[0]
    scale = pixels // (n + 2 * MIN_QUIET)
    if scale < 1:
        raise QRTooBig(f"URL too long for a {pixels}-pixel QR code ({len(url)} chars)")
    quiet = min(MAX_QUIET, (pixels // scale - n) // 2)
    rows = tuple(tuple(bool(v) for v in row) for row in code.matrix_iter(border=quiet))
    return QRCode(rows, int(code.version), scale, quiet)


def qr_matrix(url: str, pixels: int = 64) -> list[list[bool]]:
    """The 1-bit matrix (True = dark), quiet zone included, that fits ``pixels``."""
    return [list(row) for row in qr_code(url, pixels).matrix]


def qr_image(url: str, pixels: int = 64) -> Image.Image:
    """A ``pixels`` x ``pixels`` 1-bit image for the OLED: lit (1) = light, 0 = dark module,
    centred, the margin lit too."""
    code = qr_code(url, pixels)
    img = Image.new("1", (pixels, pixels), 1)
    offset = (pixels - code.size * code.scale) // 2
    px = img.load()
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(code.scale):
                    for dx in range(code.scale):
                        px[offset + x * code.scale + dx, offset + y * code.scale + dy] = 0
    return img


def qr_svg(url: str, scale: int = 8) -> str:
    """An SVG of the code (for printing an invite), full quiet zone."""
    import io

    buf = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buf, kind="svg", scale=scale, border=4)
    return buf.getvalue().decode()
