"""Tables a club takes away: a session's round history and a league's standings, as
CSV and XLSX. Every figure is one the app stored or one the score table replays
through the rules service: nothing here adds up points.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from games.models import (
    GameSession,
    HandEntry,
    League,
)
from games.names import xml_text
from games.queries import standings
from games.rules import (
    format_groups,
    parse_card,
)
from games.services.scoreboard import load_scoreboard

Value = str | int | float | None


@dataclass(frozen=True)
class Table:
    """One sheet of an export: what it is, its column headings and its rows."""

    title: str
    sheet: str  # the worksheet's name (at most 31 characters, no []:*?/\)
    header: tuple[str, ...]
    rows: tuple[tuple[Value, ...], ...]


# Per player and round, in this order, after the round's own columns.
PLAYER_COLUMNS = (
    "outcome",
    "groups",
    "hand points",
    "value points",
    "claims",
    "score",
    "total",
)


def session_history(session: GameSession) -> Table:
    """A session's rounds, one row each: number, dealer and cut joker, then for every
    seat the player's outcome, groups in card notation and stored figures, and the
    running total as the rules service replays it."""
    board = load_scoreboard(session)
    header = ["Round", "Dealer", "Cut joker"]
    for seat in board.seats:
        header += [f"{seat.player.name}: {column}" for column in PLAYER_COLUMNS]
    hands: dict[int, dict[int, HandEntry]] = {}
    for entry in HandEntry.objects.filter(round__session=session):
        hands.setdefault(entry.round_id, {})[entry.player_id] = entry
    rows = []
    for row in board.rows:
        entries = hands.get(row.round.pk, {})
        cells: list[Value] = [row.round.number, row.dealer, row.round.cut_joker]
        for seat, cell in zip(board.seats, row.cells, strict=True):
            cells += _entry_cells(entries.get(seat.player_id), cell.total)
        rows.append(tuple(cells))
    return Table(title=str(session), sheet="Rounds", header=tuple(header), rows=tuple(rows))


def _entry_cells(entry: HandEntry | None, total: int) -> list[Value]:
    if entry is None:  # out of the session by then: no hand, the total stands
        return [None] * (len(PLAYER_COLUMNS) - 1) + [total]
    return [
        entry.get_outcome_display(),
        groups_text(entry.groups),
        entry.hand_points,
        entry.value_points,
        entry.claims,
        entry.score,
        total,
    ]


def groups_text(groups: list[list[str]]) -> str:
    """Stored groups in the card notation players type (``2H 3H 4H | 8S 8S``)."""
    return format_groups([[parse_card(code) for code in group] for group in groups])


STANDINGS_HEADER = (
    "Player",
    "Rating",
    "Mu",
    "Sigma",
    "Sessions",
    "Sessions won",
    "Rounds",
    "Rounds won",
    "Points",
    "Points per round",
    "Drops",
    "Drop rate",
    "Best round",
    "Worst round",
)


def standings_table(
    league: League,
    *,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Table:
    """The league's standings over the dates, as the standings page lists them."""
    rows = standings.standings_of(league, date_from=date_from, date_to=date_to)
    return Table(
        title=f"{league.name}: standings",
        sheet="Standings",
        header=STANDINGS_HEADER,
        rows=tuple(
            (
                row.player.name,
                row.rating,
                row.mu,
                row.sigma,
                row.sessions,
                row.sessions_won,
                row.rounds,
                row.rounds_won,
                row.points,
                row.average_points,
                row.drops,
                row.drop_rate,
                row.best_round,
                row.worst_round,
            )
            for row in rows
        ),
    )


# A spreadsheet runs a cell that starts like a formula: text from players (names) is
# escaped so that opening an export cannot run anything (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_csv(table: Table) -> bytes:
    """The table as UTF-8 CSV with a byte order mark, which Excel needs to read the
    names' accents right; other readers skip it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_csv_cell(heading) for heading in table.header])
    writer.writerows([_csv_cell(value) for value in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def _csv_cell(value: Value) -> str | int:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_xlsx(table: Table) -> bytes:
    """The table as an XLSX workbook of one sheet: headings in bold and frozen, the
    numbers as numbers."""
    book = Workbook()
    sheet = book.active
    sheet.title = table.sheet
    book.properties.title = _xlsx_text(table.title)
    sheet.append([_xlsx_text(heading) for heading in table.header])
    for row in table.rows:
        sheet.append([_xlsx_text(v) if isinstance(v, str) else v for v in row])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, float):
                cell.number_format = "0.00"
            elif isinstance(cell.value, str) and cell.data_type == "f":
                cell.data_type = "s"  # text that looks like a formula stays text
    for number, heading in enumerate(table.header, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = max(10, len(heading) + 2)
    sheet.freeze_panes = "B2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _xlsx_text(text: str) -> str:
    # Control characters are not allowed in the file format (XML) at all.
    return ILLEGAL_CHARACTERS_RE.sub("", xml_text(text))
