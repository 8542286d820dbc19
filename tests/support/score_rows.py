"""The score table's rows as a player reads them: each row of its body as the texts
of its cells (the round's heading first), whitespace run together."""

from __future__ import annotations

from html.parser import HTMLParser


class _RowsParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tbody" and ("id", "score-rows") in attrs:
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        elif self._cell is not None and tag in ("th", "td"):
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def score_rows(html: str) -> list[list[str]]:
    """Each row of the score table's body, as the texts of its cells: ``["2 3♦",
    "0 0", "124 +78 out", …]``. The first table on the page (there is one)."""
    parser = _RowsParser()
    parser.feed(html)
    return parser.rows
