"""The docs site holds what the code relies on. Every "§N" the code, templates and
tests cite names a numbered heading of docs/rules; every figure the docs print (the
rules command line's output, the worked sessions, the presets' options, the league
file's example, the file names and words the players' guide quotes) is what the
project computes today; and `mkdocs build --strict` passes, so no link of the site is
broken."""

from __future__ import annotations

import datetime
import importlib.util
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.forms.sessions import SessionForm, sign_toss
from games.rules import Redraw, Toss, parse_card
from games.rules.api import score_request
from games.rules.rulesets import PRESETS, get_ruleset, presets_listing
from games.rules.totals import session_state
from games.services.leagues import create_league
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
# Where the project cites the rules: code, templates, browser code and tests.
CITING = ("games", "templates", "static", "tests", "benchmarks")
CITING_SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".txt"}

# "§4", "§ 4", and the ranges "§1–3", "§4-6", "§3–§6".
SECTION = re.compile(r"§\s?(\d+)(?:\s?[–-]\s?§?(\d+))?")
# "## §4 Declaring: who wins the round {#s4}"
NUMBERED_HEADING = re.compile(r"^#{1,6} §(\d+) .*\{#s(\d+)\}\s*$", re.M)


def cited_sections(root: Path = ROOT) -> dict[int, list[str]]:
    """Each rules section the project cites, with the files citing it."""
    cited: dict[int, list[str]] = {}
    for top in CITING:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in CITING_SUFFIXES or not path.is_file():
                continue
            for match in SECTION.finditer(path.read_text(encoding="utf-8")):
                first = int(match.group(1))
                last = int(match.group(2) or first)
                for number in range(first, last + 1):
                    cited.setdefault(number, []).append(str(path.relative_to(root)))
    return cited


def section_headings(rules: Path = RULES) -> list[tuple[int, str]]:
    """(number, page) for every "§N" heading of the rules pages."""
    found = []
    for path in sorted(rules.glob("*.md")):
        for number, anchor in NUMBERED_HEADING.findall(path.read_text(encoding="utf-8")):
            assert number == anchor, f"{path.name}: §{number} has the id s{anchor}"
            found.append((int(number), path.name))
    return found


def test_every_section_the_project_cites_is_a_heading_of_the_rules() -> None:
    cited = cited_sections()
    headings = {number for number, _page in section_headings()}
    missing = {f"§{n}": files[:3] for n, files in cited.items() if n not in headings}
    assert cited, "the project cites no section: the pattern no longer matches"
    assert missing == {}


def test_each_section_is_one_heading() -> None:
    numbers = [number for number, _page in section_headings()]
    assert sorted(numbers) == list(range(1, max(numbers) + 1))


def test_the_check_reads_ranges_and_both_spellings(tmp_path: Path) -> None:
    # Written with the sign's name, so that this file cites none of them itself.
    s = "\N{SECTION SIGN}"
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.py").write_text(
        f'"""RULES.md {s}1 and (RULES {s}4–6); {s}3-{s}5; docs/rules {s}7."""\n',
        encoding="utf-8",
    )
    (tmp_path / "games" / "b.png").write_text(f"{s}9", encoding="utf-8")
    assert sorted(cited_sections(tmp_path)) == [1, 3, 4, 5, 6, 7]


# --- Fenced blocks of a page ----------------------------------------------------------


@dataclass
class Block:
    lang: str
    title: str
    body: str


FENCE = re.compile(
    r'^(?P<indent> *)```(?P<lang>\w*)(?: title="(?P<title>[^"]*)")?\n(?P<body>.*?)^(?P=indent)```',
    re.M | re.S,
)


def blocks(page: Path) -> list[Block]:
    found = []
    for match in FENCE.finditer(page.read_text(encoding="utf-8")):
        indent = len(match["indent"])
        body = "".join(line[indent:] for line in match["body"].splitlines(keepends=True))
        found.append(Block(match["lang"], match["title"] or "", body))
    return found


def contains(actual: Any, part: Any) -> bool:
    """Whether ``part`` is ``actual`` with some keys of its objects left out."""
    if isinstance(part, dict):
        return isinstance(actual, dict) and all(
            key in actual and contains(actual[key], value) for key, value in part.items()
        )
    return actual == part


# --- docs/reference/cli.md: every command shown prints what the page says --------------


def cli_runs() -> Iterator[tuple[str, dict[str, str], Any, bool]]:
    """(command, the page's JSON files by name, the output shown, whether only in part)."""
    page = blocks(DOCS / "reference" / "cli.md")
    files = {b.title: b.body for b in page if b.lang == "json" and b.title.endswith(".json")}
    for index, block in enumerate(page):
        if block.lang != "sh":
            continue
        output = next(b for b in page[index + 1 :] if b.title.startswith("output"))
        yield block.body.strip(), files, json.loads(output.body), "in part" in output.title


CLI_RUNS = list(cli_runs())


def test_the_command_line_page_shows_a_run_in_each_preset() -> None:
    scored = set()
    for command, files, _shown, _in_part in CLI_RUNS:
        name = command.split()[-1]
        if command.split()[3] == "score" and name in files:
            scored.add(json.loads(files[name])["ruleset"])
    assert scored == set(PRESETS)


@pytest.mark.parametrize(
    ("command", "files", "shown", "in_part"), CLI_RUNS, ids=[run[0][:60] for run in CLI_RUNS]
)
def test_each_command_on_the_page_prints_what_it_shows(
    tmp_path: Path, command: str, files: dict[str, str], shown: Any, in_part: bool
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "games.rules"]
    run = subprocess.run(
        [sys.executable, *words[1:]],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    printed = json.loads(run.stdout)
    assert run.returncode == (2 if "error" in shown else 0), run.stdout + run.stderr
    assert contains(printed, shown) if in_part else printed == shown


# --- docs/rules/examples.md: every worked session is what the rules service scores ----

KINDS = {
    "pure sequence": "pure_sequence",
    "impure sequence": "impure_sequence",
    "set": "set",
    "tunnela": "tunnela",
    "dublee": "dublee",
    "joker group": "joker_group",
    "no group": "invalid",
}
HAND_LINE = re.compile(r"^  (?P<cards>\S.*?)\s{2,}(?P<kind>[a-z ]+?)\s+(?P<counted>\d+)$")


@dataclass
class Round:
    number: int
    cut: str
    jokers: list[str]
    # Each player's groups as shown: [(cards, kind, counted)], and the count line.
    hands: dict[str, list[tuple[str, str, int]]] | None
    counts: dict[str, int]
    rows: list[dict[str, str]] = field(default_factory=list)


def figure(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def parse_hands(body: str) -> tuple[dict[str, list[tuple[str, str, int]]], dict[str, int]]:
    hands: dict[str, list[tuple[str, str, int]]] = {}
    counts: dict[str, int] = {}
    player = ""
    for line in body.splitlines():
        if not line.startswith(" "):
            player = line.split(" (")[0]
            hands[player] = []
        elif line.split()[0] == "count":
            counts[player] = int(line.split()[1])
        else:
            match = HAND_LINE.match(line)
            assert match, f"not a group line: {line!r}"
            hands[player].append((match["cards"], KINDS[match["kind"]], int(match["counted"])))
    return hands, counts


def worked_sessions() -> dict[str, list[Round]]:
    text = (RULES / "examples.md").read_text(encoding="utf-8")
    sessions: dict[str, list[Round]] = {}
    parts = re.split(r"^### (\S+) \{#example-\S+\}\s*$", text, flags=re.M)
    for preset, part in zip(parts[1::2], parts[2::2], strict=True):
        rounds = sessions.setdefault(preset, [])
        pieces = re.split(r"^#### Round (\d+): cut `(\w+)`\s*$", part, flags=re.M)
        for number, cut, body in zip(pieces[1::3], pieces[2::3], pieces[3::3], strict=True):
            jokers = re.search(r"^Jokers: (.*)\.$", body, re.M)
            shown = re.search(r"^```text\n(.*?)^```", body, re.M | re.S)
            hands, counts = parse_hands(shown.group(1)) if shown else (None, {})
            one = Round(int(number), cut, [], hands, counts)
            if jokers:
                one.jokers = [code.strip("`") for code in jokers.group(1).split()]
            table = [line for line in body.splitlines() if line.startswith("| ")]
            header = [cell.strip() for cell in table[0].strip("|").split("|")]
            for line in table[1:]:
                one.rows.append(
                    dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
                )
            rounds.append(one)
    return sessions


WORKED = worked_sessions()


def hands_of(preset: str, one: Round) -> dict[str, list[tuple[str, str, int]]]:
    """The hands a round shows, or, where it shows only its table, those of the round
    it repeats: the same round of the session before (the 201 pool plays the 101
    pool's hands), else the round before it."""
    if one.hands is not None:
        return one.hands
    names = list(WORKED)
    before = WORKED[names[names.index(preset) - 1]] if names.index(preset) else []
    same = [r for r in before if r.number == one.number and r.hands is not None]
    if same:
        return hands_of(names[names.index(preset) - 1], same[0])
    return hands_of(preset, WORKED[preset][one.number - 2])


def test_the_rules_page_works_a_session_in_each_preset() -> None:
    assert set(WORKED) == set(PRESETS)
    assert all(len(rounds) >= 2 for rounds in WORKED.values())


@pytest.mark.parametrize("preset", list(WORKED))
def test_each_worked_session_is_what_the_rules_service_scores(preset: str) -> None:
    ruleset = get_ruleset(preset, {})
    scores = []
    for one in WORKED[preset]:
        hands = hands_of(preset, one)
        players = []
        for row in one.rows:
            outcome = row["outcome"].split("`")[1]
            player: dict[str, Any] = {"name": row["player"], "outcome": outcome}
            if "on the deal" in row["outcome"]:
                player["on_deal"] = True
            if row["player"] in hands:
                player["groups"] = [cards for cards, _kind, _counted in hands[row["player"]]]
            players.append(player)
        result = score_request({"ruleset": preset, "cut_joker": one.cut, "players": players})
        where = f"{preset} round {one.number}"
        if one.jokers:
            assert one.jokers == result["jokers"], where
        for row, scored in zip(one.rows, result["players"], strict=True):
            shown = (row["hand points"], row["score"], row.get("value points"), row.get("claims"))
            printed = (
                scored["hand_points"],
                scored["score"],
                scored["value_points"] if "value points" in row else None,
                scored["claims"] if "claims" in row else None,
            )
            assert tuple(None if s is None else figure(s) for s in shown) == printed, where
            if one.hands and scored["name"] in one.hands:
                groups = [(" ".join(g["cards"]), g["kind"], g["counted"]) for g in scored["groups"]]
                assert one.hands[scored["name"]] == groups, where
                if scored["name"] in one.counts:
                    assert one.counts[scored["name"]] == sum(g[2] for g in groups), where
        scores.append({p["name"]: p["score"] for p in result["players"]})
    state = session_state(ruleset, [row["player"] for row in WORKED[preset][0].rows], scores)
    for one, line in zip(WORKED[preset], state.lines, strict=True):
        shown_totals = {row["player"]: figure(row["total"]) for row in one.rows}
        assert shown_totals == line.totals, f"{preset} round {one.number} totals"


# --- docs/rules/options.md: every option, and its value in each preset -------------------


def option_cell(value: Any) -> str:
    """An option's value as the options page writes it."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        if not value:
            return "none"
        if all(isinstance(item, int) for item in value):
            return " / ".join(str(item) for item in value)
        return ", ".join(f"`{item}`" for item in value)
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def test_the_options_page_gives_every_option_its_value_in_every_preset() -> None:
    listing = presets_listing()
    text = (RULES / "options.md").read_text(encoding="utf-8")
    rows: dict[str, list[str]] = {}
    headers = set()
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| option |"):
            headers.add(tuple(cells[1:]))
        elif line.startswith("| `"):
            name = cells[0].strip("`")
            assert name not in rows, f"{name} is listed twice"
            rows[name] = cells[1:]
    assert headers == {tuple(PRESETS)}
    expected = {
        name: [option_cell(listing["presets"][preset][name]) for preset in PRESETS]
        for name in listing["options"]
    }
    assert rows == expected
    for name, meaning in listing["options"].items():
        assert f"`{name}`\n:   {meaning}\n" in text, f"the meaning of {name}"


# --- docs/reference/league-file.md: the example is a file the import takes -------------


@pytest.mark.django_db
def test_the_league_file_example_imports_and_exports_as_it_is() -> None:
    (example,) = [b for b in blocks(DOCS / "reference" / "league-file.md") if b.lang == "json"]
    data = json.loads(example.body)
    imported = import_league(example.body)
    exported = export_league(imported.league)
    # An import makes new share links, and its sessions were created by nobody here.
    for session in (*data["sessions"], *exported["sessions"]):
        session.pop("share_token")
        session.pop("created_by")
    assert exported["sessions"] == data["sessions"]
    assert exported["league"] | {"slug": ""} == data["league"] | {"slug": ""}


# --- docs/players: every page of the guide shows what it tells -----------------------------

PLAYERS = DOCS / "players"
# A Markdown image, ![words](path), with attributes after it or not.
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<path>[^)\s]+)\)")


def images_of(page: Path) -> list[tuple[str, str]]:
    """(words, path) of each image the page shows."""
    return [(m["alt"], m["path"]) for m in IMAGE.finditer(page.read_text(encoding="utf-8"))]


def test_every_page_of_the_players_guide_has_a_picture() -> None:
    pages = sorted(PLAYERS.glob("*.md"))
    assert len(pages) >= 9, "the guide has a page a task"
    bare = [page.name for page in pages if not images_of(page)]
    assert bare == [], "tests/e2e/test_guide.py takes the pictures (make guide)"


def test_every_picture_of_the_guide_is_there_and_described() -> None:
    missing, wordless = [], []
    for page in sorted(DOCS.rglob("*.md")):
        for alt, path in images_of(page):
            if not (page.parent / path).is_file():
                missing.append(f"{page.relative_to(DOCS)}: {path}")
            if not alt.strip():
                wordless.append(f"{page.relative_to(DOCS)}: {path}")
    assert missing == []
    assert wordless == [], "say in words what the picture shows"


def test_every_picture_taken_for_the_guide_is_shown() -> None:
    shown = {
        (page.parent / path).resolve()
        for page in PLAYERS.glob("*.md")
        for _alt, path in images_of(page)
    }
    taken = {path.resolve() for path in (PLAYERS / "img").glob("*.png")}
    assert sorted(p.name for p in taken - shown) == []


def test_the_guide_pictures_stay_small() -> None:
    large = {
        path.name: path.stat().st_size
        for path in (PLAYERS / "img").glob("*.png")
        if path.stat().st_size > 150_000
    }
    assert large == {}, "one phone screen in CSS pixels (tests/e2e/test_guide.py's shoot)"


def test_the_check_finds_pictures_with_and_without_attributes(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        'Text ![A phone](img/a.png){ width="300" } and ![](b.png).\n[a link](c.md)\n',
        encoding="utf-8",
    )
    assert images_of(page) == [("A phone", "img/a.png"), ("", "b.png")]


# --- docs/players: the words and names the guide quotes are the app's ---------------------


def guide_text(page: str) -> str:
    """A page of the guide with its lines joined, as it reads."""
    return " ".join((PLAYERS / page).read_text(encoding="utf-8").split())


def download_name(client: Client, url: str) -> str:
    return client.get(url)["Content-Disposition"].split('filename="')[1].rstrip('"')


@pytest.mark.django_db
def test_the_guide_names_the_downloads_as_they_come(scorer: Client, user: User) -> None:
    guide = guide_text("history-and-downloads.md")
    friday = make_session(user, name="Friday night", played_on=datetime.date(2026, 11, 27))
    unnamed = make_session(user, name="", played_on=datetime.date(2026, 11, 27))
    league = create_league(user, name="Friday", preset="21-points", overrides={})
    rounds_csv = reverse("games:session_rounds_csv", args=[friday.pk])
    named = []
    for number in range(1, 7):
        play(friday, "8S", ROUND_1)
        play(unnamed, "8S", ROUND_1)
        if number in (1, 6):
            named.append(download_name(scorer, rounds_csv))
    named.append(download_name(scorer, reverse("games:session_rounds_csv", args=[unnamed.pk])))
    make_session(user, name="Friday Night", played_on=datetime.date(2026, 12, 4))
    named.append(download_name(scorer, rounds_csv))  # another of that name: the day follows
    standings = reverse("games:league_standings_csv", args=[league.slug])
    named.append(download_name(scorer, f"{standings}?from=2026-01-01"))

    assert named == [
        "friday-night-1-round.csv",
        "friday-night-6-rounds.csv",
        "session-6-rounds.csv",
        "friday-night-6-rounds-2026-11-27.csv",
        "friday-standings-from-2026-01-01.csv",
    ]
    assert [name for name in named if f"`{name}`" not in guide] == []


def test_the_guide_says_a_toss_tie_and_a_redraw_as_the_new_session_page_does() -> None:
    # As the guide's examples have it: Asha and Ben both drew the A♥ (two decks) and
    # drew again, then both an ace. The form's words for them.
    dealt = [("Asha", parse_card("AH")), ("Ben", parse_card("AC")), ("Chen", parse_card("5D"))]
    tossed = Toss(tuple(dealt), (Redraw(("Asha", "Ben"), parse_card("AH")),))
    seats = {f"seat_{n}": name for n, (name, _) in enumerate(dealt, start=1)}
    form = SessionForm(seats | {"toss": sign_toss(tossed)})
    (tie,), (redraw,) = form.toss_ties(), form.toss_redraws_said()
    page = (ROOT / "templates" / "games" / "session_new.html").read_text(encoding="utf-8")
    seated = "Seated by the toss, highest card first; the lowest card deals first"
    guide = guide_text("start-a-session.md")
    assert f'"{tie}"' in guide and f'"{redraw}"' in guide
    assert seated in page and f'"{seated}"' in guide


# --- The site ------------------------------------------------------------------------------


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed: `make docs` installs requirements-docs.txt")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "rules" / "declarations" / "index.html").read_text().count('id="s4"') == 1
