"""What a screenshot shows, pixel by pixel: the browser tests look at a page as a
player would (a shadow there or not) without an imaging library. Reads the PNGs a
browser writes: 8 bits a channel, grey or colour, with or without alpha, not
interlaced."""

from __future__ import annotations

import statistics
import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # PNG colour type → channels a pixel


class Image:
    """A decoded screenshot: ``lightness(x, y)`` from 0 (black) to 255 (white)."""

    def __init__(self, png: bytes) -> None:
        assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        chunks, at = {}, 8
        data = b""
        while at < len(png):
            (length,) = struct.unpack(">I", png[at : at + 4])
            kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
            if kind == b"IDAT":
                data += body
            else:
                chunks[kind] = body
            at += 12 + length
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
        assert depth == 8 and colour in _CHANNELS and not interlace, "a PNG this reader lacks"
        self.width, self.height = width, height
        self._channels = _CHANNELS[colour]
        stride = width * self._channels
        self._rows = _unfiltered(zlib.decompress(data), stride, height, self._channels)

    def lightness(self, x: int, y: int) -> float:
        pixel = self._rows[y][x * self._channels : (x + 1) * self._channels]
        colour = pixel[:3] if self._channels >= 3 else pixel[:1] * 3
        return 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2]

    def column_lightness(self, x: int) -> float:
        """The median lightness of a column: what most of it shows, text aside."""
        return statistics.median(self.lightness(x, y) for y in range(self.height))


def _unfiltered(raw: bytes, stride: int, height: int, step: int) -> list[bytes]:
    """The rows of pixels, each row's PNG filter undone."""
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = row[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                row[i] = (row[i] + _paeth(left, up, corner)) & 0xFF
        rows.append(bytes(row))
        previous = row
    return rows


def _paeth(left: int, up: int, corner: int) -> int:
    guess = left + up - corner
    near_left, near_up, near_corner = abs(guess - left), abs(guess - up), abs(guess - corner)
    if near_left <= near_up and near_left <= near_corner:
        return left
    return up if near_up <= near_corner else corner
