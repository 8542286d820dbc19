"""Tables a club takes away: a session's round history and a league's standings, as
CSV and XLSX. Every figure is one the app stored or one the score table replays
through the rules service: nothing here adds up points.
"""

from __future__ import annotations

import csv
import datetime
import io
import zoneinfo
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from games.currencies import league_currency
from games.models import (
    GameSession,
    HandEntry,
    League,
    RoundChange,
)
from games.names import xml_text
from games.queries import standings
from games.rules import (
    choice_words,
    format_groups,
    parse_card,
)
from games.services.scoreboard import Column, load_scoreboard
from games.zones import session_zone

# A moment is written on the club's clock (the league's time zone, else the site's:
# games/zones.py), without the zone: what a spreadsheet takes as a date and time. The
# headings of those columns name the zone.
Value = str | int | float | datetime.datetime | None


@dataclass(frozen=True)
class Table:
    """One sheet of an export: what it is, its column headings and its rows."""

    title: str
    sheet: str  # the worksheet's name (at most 31 characters, no []:*?/\)
    header: tuple[str, ...]
    rows: tuple[tuple[Value, ...], ...]


# A round's own columns, in this order: who entered it and when, and its edits, from
# the audit trail (RoundChange). The columns that hold a time name the zone.
ROUND_COLUMNS = (
    gettext_lazy("Round"),
    gettext_lazy("Dealer"),
    gettext_lazy("Cut joker"),
    gettext_lazy("Entered by"),
    # Translators: a column heading; {zone} is the time zone's name (Asia/Kolkata).
    gettext_lazy("Entered at ({zone})"),
    gettext_lazy("Edits"),
    gettext_lazy("Last edited by"),
    # Translators: a column heading; {zone} is the time zone's name (Asia/Kolkata).
    gettext_lazy("Last edited at ({zone})"),
)
# Per player and round, in this order, after the round's own columns (each heading
# says the player's name first: "Asha: outcome").
PLAYER_COLUMNS = (
    gettext_lazy("outcome"),
    gettext_lazy("on the deal"),
    gettext_lazy("groups"),
    gettext_lazy("declaration"),
    gettext_lazy("hand points"),
    gettext_lazy("value points"),
    gettext_lazy("claims"),
    gettext_lazy("score"),
    gettext_lazy("total"),
)
# After "total" where the rules let a player who is out buy back in: the total they
# rejoined at after the round (the round's own total is the one that put them out).
REJOIN_COLUMN = gettext_lazy("rejoined at")


def session_history(session: GameSession) -> Table:
    """A session's rounds, one row each: number, dealer and cut joker, who entered it
    and when, how often it was edited and last by whom and when; then for every seat
    the player's outcome, groups in card notation (a hand counted at the table: its
    figures in words, "counted at the table (count 102)"), declaration and stored figures,
    and the running total as the rules service replays it (in a pool with rejoins,
    then the total a player rejoined at after the round)."""
    board = load_scoreboard(session)
    zone = session_zone(session)
    columns = (*PLAYER_COLUMNS, REJOIN_COLUMN) if board.rejoins_played else PLAYER_COLUMNS
    header = [str(heading).format(zone=zone.key) for heading in ROUND_COLUMNS]
    for seat in board.seats:
        header += [
            # Translators: a column heading of the rounds download: a player, then a column.
            gettext("{player}: {column}").format(player=seat.player.name, column=column)
            for column in columns
        ]
    hands: dict[int, dict[int, HandEntry]] = {}
    for entry in HandEntry.objects.filter(round__session=session):
        hands.setdefault(entry.round_id, {})[entry.player_id] = entry
    authors = dict(_authors(session))
    trails = _trails(session)
    rows = []
    for row in board.rows:
        entries = hands.get(row.round.pk, {})
        cells: list[Value] = [row.round.number, row.dealer, row.round.cut_joker]
        cells += trails.get(row.round.pk, _Trail()).cells(authors.get(row.round.pk), zone)
        for column, cell in zip(board.columns, row.cells, strict=True):
            entry = entries.get(column.seat.player_id)
            if entry is None and cell.away:
                cells += _away_cells(row.round.number, column)
            else:
                cells += _entry_cells(entry, cell.total)
            if board.rejoins_played:
                cells.append(cell.rejoined)
        rows.append(tuple(cells))
    return Table(
        title=str(session),
        # Translators: the name of the rounds download's worksheet (at most 31 characters).
        sheet=gettext("Rounds"),
        header=tuple(header),
        rows=tuple(rows),
    )


def _authors(session: GameSession):
    """(round id, who entered it as the round page names them): the last to save it."""
    for played in session.rounds.select_related("entered_by").only(
        "pk", "entered_by__username", "entered_by_name"
    ):
        yield played.pk, played.author or None


@dataclass
class _Trail:
    """A round's audit trail as the history export shows it."""

    entered_by: str | None = None
    entered_at: datetime.datetime | None = None
    edits: int = 0
    edited_by: str | None = None
    edited_at: datetime.datetime | None = None
    known: bool = False  # the trail has the round's creation

    def cells(self, author: str | None, zone: zoneinfo.ZoneInfo) -> list[Value]:
        # A round with no creation in the trail (imported from a league file before
        # version 4, or added in the admin): its author as the round names them, and
        # no time rather than a wrong one.
        return [
            self.entered_by if self.known else author,
            _local(self.entered_at, zone),
            self.edits,
            self.edited_by,
            _local(self.edited_at, zone),
        ]


def _trails(session: GameSession) -> dict[int, _Trail]:
    """Each round's creation and edits, from the audit trail, in one query."""
    trails: dict[int, _Trail] = {}
    changes = (
        RoundChange.objects.filter(session=session, round__isnull=False)
        .select_related("changed_by")
        .order_by("changed_at", "pk")
    )
    for change in changes:
        trail = trails.setdefault(change.round_id, _Trail())
        who = change.author or None
        if change.action == RoundChange.Action.CREATED:
            trail.entered_by, trail.entered_at, trail.known = who, change.changed_at, True
        elif change.action == RoundChange.Action.EDITED:
            trail.edits += 1
            trail.edited_by, trail.edited_at = who, change.changed_at
    return trails


def _local(moment: datetime.datetime | None, zone: zoneinfo.ZoneInfo) -> datetime.datetime | None:
    """A moment in ``zone``, to the second, without the zone (which XLSX cannot hold:
    the column's heading names it)."""
    if moment is None:
        return None
    return timezone.localtime(moment, zone).replace(tzinfo=None, microsecond=0)


def _away_cells(number: int, column: Column) -> list[Value]:
    """A round a player was not at the table for: before a latecomer joined (no
    total yet), or after a player left (their total stands)."""
    if column.joined_after is not None and number <= column.joined_after:
        return [gettext("not yet at the table")] + [None] * (len(PLAYER_COLUMNS) - 1)
    return [gettext("left the table")] + [None] * (len(PLAYER_COLUMNS) - 2) + [column.total]


def _entry_cells(entry: HandEntry | None, total: int) -> list[Value]:
    if entry is None:  # out of the session by then: no hand, the total stands
        return [None] * (len(PLAYER_COLUMNS) - 1) + [total]
    return [
        entry.get_outcome_display(),
        # Translators: a hand won on the deal, in the rounds download's column.
        gettext("yes") if entry.on_deal else None,
        # A hand counted at the table has no cards: its figures stand in their column.
        HandEntry.counted_words(entry.outcome, entry.figures)
        if entry.counted
        else groups_text(entry.groups),
        choice_words(entry.declaration) if entry.declaration else None,
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
    gettext_lazy("Player"),
    gettext_lazy("Rating"),
    gettext_lazy("Estimated skill"),
    gettext_lazy("Uncertainty"),
    gettext_lazy("Sessions"),
    gettext_lazy("Sessions won"),
    gettext_lazy("Rounds"),
    gettext_lazy("Rounds won"),
    gettext_lazy("Points"),
    gettext_lazy("Points per round"),
    gettext_lazy("Drops"),
    gettext_lazy("Drop rate"),
    gettext_lazy("Best round"),
    gettext_lazy("Worst round"),
    # The sessions' totals added up (a penalty game's: low is good), and what the
    # sessions played for stakes won or lost (empty where no stakes were set).
    gettext_lazy("Total points"),
    gettext_lazy("Net money"),
)


def standings_table(
    league: League,
    *,
    game: standings.Game | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Table:
    """The league's standings in one game (None: its own) over the dates, as the
    standings page lists them; net money as a plain number with two decimals, a
    spreadsheet's to add up, its currency named in the heading ("Net money (INR)")."""
    preset = game.preset if game else None
    rows = standings.standings_of(league, game=preset, date_from=date_from, date_to=date_to)
    currency = league_currency(league)
    if currency:
        # Translators: a column heading; {currency} is its code (INR).
        money_heading = gettext("Net money ({currency})").format(currency=currency)
    else:
        money_heading = str(STANDINGS_HEADER[-1])
    return Table(
        title=gettext("{league}: standings, {game}").format(
            league=league.name, game=game.label if game else league.get_preset_display()
        ),
        # Translators: the name of the standings download's worksheet (at most 31 characters).
        sheet=gettext("Standings"),
        header=(*map(str, STANDINGS_HEADER[:-1]), money_heading),
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
                row.total_points,
                None if row.money is None else row.money / 100,
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
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
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
            elif isinstance(cell.value, datetime.datetime):
                cell.number_format = "yyyy-mm-dd hh:mm:ss"
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
