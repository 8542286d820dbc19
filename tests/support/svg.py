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
