"""Reading the server-drawn SVG charts back: each line's points, and whether a line
plots its values to scale."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(str(svg))


def lines_of(root: ET.Element) -> dict[str, list[list[tuple[float, float]]]]:
    """Each line's polylines as lists of (x, y) drawing coordinates, by name."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "chart-line":
            found[group.get("data-name")] = [
                [tuple(map(float, pair.split(","))) for pair in poly.get("points").split()]
                for poly in group.iter(f"{SVG}polyline")
            ]
    return found


def assert_linear(values: list[float], coords: list[float]) -> tuple[float, float]:
    """The coordinates are one straight mapping of the values: returns (a, b) with
    coord = a * value + b, checked on every point."""
    pairs = list(zip(values, coords, strict=True))
    (v0, c0), (v1, c1) = min(pairs), max(pairs)
    a = (c1 - c0) / (v1 - v0)
    b = c0 - a * v0
    for value, coord in pairs:
        assert coord == pytest.approx(a * value + b, abs=0.11), (value, coord)
    return a, b


# A character of a label is taken as 0.64 of the font size: the widest digits of the
# common system fonts (DejaVu Sans; Roboto's are 0.55). Wide enough that labels found
# apart here are apart on any phone.
CHAR_EM = 0.64


def label_spans(root: ET.Element, css_class: str) -> list[tuple[float, float, str]]:
    """The horizontal extent (left, right) in drawing units of each text of
    ``css_class``, worked out from its x, its text-anchor and its length, with its
    text: where a person would see it, without a browser."""
    size = float(root.get("font-size"))
    spans = []
    for text in root.iter(f"{SVG}text"):
        if text.get("class") != css_class:
            continue
        width = len(text.text) * size * CHAR_EM
        x = float(text.get("x"))
        left = {"start": x, "middle": x - width / 2, "end": x - width}[
            text.get("text-anchor", "start")
        ]
        spans.append((left, left + width, text.text))
    return spans
