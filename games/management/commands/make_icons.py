"""The app's icons for the web app manifest and the home screen: a white card with a
red heart on the table's green felt. Drawn here in plain Python (no image library in
the requirements for four small files) and committed under static/icons/; run again
after changing the drawing.

    python manage.py make_icons            # writes static/icons/*.png
    python manage.py make_icons -o /tmp/x  # elsewhere
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

RGBA = tuple[int, int, int, int]

# The colours of static/css/app.css: --felt, --red-suit and the card's white.
FELT: RGBA = (0x14, 0x53, 0x2D, 255)
RED: RGBA = (0xC8, 0x10, 0x2E, 255)
CARD: RGBA = (0xFB, 0xFA, 0xF7, 255)
CLEAR: RGBA = (0, 0, 0, 0)

# Samples per pixel side: edges are antialiased by averaging SUPERSAMPLE² points.
SUPERSAMPLE = 3


def png_bytes(width: int, height: int, pixels: list[list[RGBA]]) -> bytes:
    """An 8-bit RGBA PNG of ``pixels`` (rows top to bottom)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(value for pixel in row for value in pixel) for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _in_rounded_rect(
    x: float, y: float, box: tuple[float, float, float, float], radius: float
) -> bool:
    left, top, right, bottom = box
    if not (left <= x <= right and top <= y <= bottom):
        return False
    dx = max(left + radius - x, 0.0, x - (right - radius))
    dy = max(top + radius - y, 0.0, y - (bottom - radius))
    return dx * dx + dy * dy <= radius * radius


def _in_heart(x: float, y: float, centre: tuple[float, float], size: float) -> bool:
    # The heart curve (x² + y² − 1)³ − x²y³ ≤ 0 spans about 2.3 units across; y
    # points up there and down in an image.
    u = (x - centre[0]) / size * 2.3
    v = -(y - centre[1]) / size * 2.3 + 0.15
    return (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0


def card_on_felt(*, full_bleed: bool) -> Callable[[float, float], RGBA]:
    """The drawing, on a unit square: a rounded felt tile (or, ``full_bleed``, felt
    to every edge, with the card inside the maskable icon's safe circle)."""
    scale = 0.78 if full_bleed else 1.0
    half_w, half_h = 0.25 * scale, 0.34 * scale
    card = (0.5 - half_w, 0.5 - half_h, 0.5 + half_w, 0.5 + half_h)
    heart = ((0.5, 0.5), 0.3 * scale)

    def colour(x: float, y: float) -> RGBA:
        if not full_bleed and not _in_rounded_rect(x, y, (0, 0, 1, 1), 0.18):
            return CLEAR
        if _in_heart(x, y, *heart):
            return RED
        if _in_rounded_rect(x, y, card, 0.05 * scale):
            return CARD
        return FELT

    return colour


def render(size: int, colour: Callable[[float, float], RGBA]) -> list[list[RGBA]]:
    """``colour`` sampled over a ``size``-pixel square, each pixel the average of its
    samples (weighted by their alpha, so a clear edge does not darken the colour)."""
    step = 1 / (size * SUPERSAMPLE)
    offsets = [(i + 0.5) * step for i in range(SUPERSAMPLE)]
    count = SUPERSAMPLE * SUPERSAMPLE
    rows = []
    for py in range(size):
        row = []
        for px in range(size):
            r = g = b = a = 0
            for oy in offsets:
                for ox in offsets:
                    sr, sg, sb, sa = colour(px / size + ox, py / size + oy)
                    r, g, b, a = r + sr * sa, g + sg * sa, b + sb * sa, a + sa
            if a:
                row.append((round(r / a), round(g / a), round(b / a), round(a / count)))
            else:
                row.append(CLEAR)
        rows.append(row)
    return rows


# File name, size in pixels, full bleed. The manifest asks for 192 and 512 (any) and
# a maskable 512; iOS takes the 180 apple-touch-icon and shows no transparency.
ICONS = (
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


class Command(BaseCommand):
    help = "Draw the app's icons (static/icons/*.png) for the manifest and home screens."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "-o",
            "--output",
            type=Path,
            default=Path(settings.BASE_DIR) / "static" / "icons",
            help="Directory to write the PNG files to (default: static/icons).",
        )

    def handle(self, *args: Any, output: Path, **options: Any) -> None:
        output.mkdir(parents=True, exist_ok=True)
        for name, size, full_bleed in ICONS:
            pixels = render(size, card_on_felt(full_bleed=full_bleed))
            (output / name).write_bytes(png_bytes(size, size, pixels))
            self.stdout.write(f"{output / name}: {size}x{size}")
