"""Round entry on a phone: the taps, keystrokes and scrolls one scorer needs.

    .venv/bin/python benchmarks/entry.py                # a table per round and way
    .venv/bin/python benchmarks/entry.py --json         # one JSON object
    .venv/bin/python benchmarks/entry.py --grouped      # hands typed in groups
    .venv/bin/python benchmarks/entry.py --table        # and table mode
    .venv/bin/python benchmarks/entry.py --counts       # and hands counted at the table

Migrates a throwaway SQLite database in a temporary folder, starts the app on it
(``manage.py runserver --noreload`` on a free port of 127.0.0.1, development
settings with DEBUG off: WhiteNoise serves the static files from the finders, the
templates are cached), creates a user and four sessions with ``create_session`` and
signs the browser in by cookie.

The deal is fixed by --seed and checked by the rules service: a 6-player 21-card
round (preset ``21-points``) and a 4-player 13-card round (``13-pool-101``), each
with one declarer whose hand is built to declare validly and losers who show hands
dealt at random from the rest of the shoe (the solver, ``arrange``, groups them as
well as their cards allow; ``score_round`` then scores the deal).

Each round is entered twice, each time in a fresh session, by the Chromium the
browser tests drive (CHROMIUM_PATH, else the system's, else Playwright's download)
at 390×844 with touch (``is_mobile``, ``has_touch``, device scale 2):

- **picker**: only the card picker. Taps: the cut joker, the declarer's outcome
  button, every card of every hand, Save;
- **typed**: the keyboard. Taps: the picker's keyboard key where the phone keeps the
  system keyboard closed (a touch screen), each field to focus it (the cut joker,
  each hand), the declarer's outcome button, Save; keystrokes: every character typed
  (``Scorer.type``).

Cards go in the natural way by default: each hand in the order dealt, lower case,
no spaces and no group separators ("5h10cpjqs..."), which the server arranges. With
--grouped each hand goes in the solver's grouping instead, separated by the picker's
New group key (a tap) or "|" (a keystroke): the fallback for a server that does not
arrange hands typed in any order.

A scroll is counted when the element to tap next is not wholly inside the viewport
at the moment it is needed (a person would have to scroll to it); the script then
scrolls it into view itself and taps it (``locator.tap``), and lists where each such
element lay. The script taps faster than a person, so before each step (a player's
hand, Save) it lets the live preview land first, as it has at a person's pace; the
page's own timers (the preview's 300 ms wait, the picker keeping itself in view for
two seconds after it moves on) run on Playwright's clock, which the script moves
on by the same 0.6 s a tap, 0.25 s a keystroke and 1 s a scroll.
Estimated human seconds = 0.6 × taps + 0.25 × keystrokes + 1 × scrolls. The phone's
on-screen keyboard is not emulated: it would hide part of the viewport and make
typing switch to digits.

**Table mode** (``--table``): the 6-player 21-card deal again, in a fresh
session with table mode open, entered by six seat contexts (each a phone of its own,
390×844 with touch, on a clock of its own that only the script moves once its seat
is picked) and the scorer's. Each phone opens the table link and picks its seat
(once a session: not counted), then taps the cut joker (the picker asks for it
first), the declarer's outcome button, every card of its hand in the order dealt,
and Hand in. The six phones take turns tap by tap, so the
server gets their hands at the same time. The scorer's page follows the seats (its
live view polls every 2 s, on the scorer's clock, each answer waited for) and, once
every hand shows "Hand in", the scorer taps Save. Table time = the slowest seat's
estimated seconds + the wait until the scorer's page shows the last hand in + the
scorer's taps and scrolls after it (Save). Target ≤ 30 s.

**Counted at the table** (``--counts``): ``table_counts``, table mode again, in a
session whose house rules open each phone on its count (``hand_entry``
"counts_first") and trust the table's show (``trust_show``): each of the six phones
taps the cut joker, then types the figures its cards give the rules (``hand_figures``:
its count and value points, each a tap on the field and its digits on the phone's
keypad, a figure of 0 left empty), a two-point hand's box where it is one, and Hand
in; the winner, trusted, taps Declared and types their value points alone. Table time
as above; ``taps`` and ``keys`` are everyone's (the six phones and the scorer), and
``saved`` compares the round stored with the rules service's scores for the figures
typed. Target ≤ 10 s.

``--counts`` also enters the 6-player 21-card deal by one scorer (``counts``), in a
fresh session whose house rules open the round on counts (``hand_entry`` counts
first), at 390×844 with touch as above. Taps: the cut joker on
the picker, the declarer's Declared, which turns their hand to its cards, every card
of it on the picker; then for each loser in seat order a tap on each figure's field
and its digits typed (the count and the value points that ``hand_figures`` gives
their hand, a value of 0 left blank as a player says "none"; a two-point hand's box a
tap); Save. ``counts_trusted`` is the same where the house rules trust the table's
show (``trust_show``): the declarer is one tap, Declared, with no cards and no value
points. Their target: ≤ 30 s and ≤ 40 taps and keystrokes together.

After Save the round is read back from the database: ``saved`` is true only when
round 1 is stored and every player's score equals what ``score_round`` computes for
the deal. Prints a table per round and way (per player and in total, with the
targets beside the figures; nothing is asserted), or with --json one object:
``{"21-card-6p": {"picker": {"taps", "keys", "scrolls", "seconds", "saved",
"players", ...}, "typed": {...}}, "13-card-4p": {...}}``; with --table, under
"21-card-6p" also ``"table": {"seconds", "seats": [{"name", "taps", "keys", "scrolls",
"seconds", ...}], "scorer": {...}, "saved", "target"}``; with --counts also
``"table_counts": {"taps", "keys", "seconds", "saved", "winner", "said", "seats", ...}``
and ``"counts"`` and ``"counts_trusted"``, each as a way above (their ``saved``
compares with ``score_round`` of the figures typed; ``taps_and_keys`` adds the two).

No floor is measured beside these figures, as the other benchmarks measure one: none
of them is timed by the machine's clock. Taps, keystrokes and scrolls are counted,
the seconds are estimated from the counts, and the page's timers (and table mode's
polls) run on Playwright's clocks, which only the script moves: the figures do not
scale with the machine's speed (table mode's wait for the scorer's next poll can
move by half a second with how the phones' turns fall).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package: the folder makes way.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import json
import os
import random
import secrets
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PHONE = {"width": 390, "height": 844}
HOST = "127.0.0.1"
NAMES = ("Asha", "Ben", "Chen", "Dev", "Esi", "Femi")
# (key in the report, preset, players at the table)
ROUNDS = (("21-card-6p", "21-points", 6), ("13-card-4p", "13-pool-101", 4))
WAYS = ("picker", "typed")
# Estimated human time: a tap, a keystroke, a scroll.
SECONDS = {"taps": 0.6, "keys": 0.25, "scrolls": 1.0}
# The targets, shown beside the figures (never asserted).
TARGETS = {
    ("21-card-6p", "picker"): {"taps": 150, "seconds": 90},
    ("21-card-6p", "typed"): {"seconds": 90},
    ("21-card-6p", "counts_trusted"): {"taps_and_keys": 40, "seconds": 30},
}
# Hands counted at the table (--counts): each way's house rules.
COUNTS = {
    "counts": {"hand_entry": "counts_first"},
    "counts_trusted": {"hand_entry": "counts_first", "trust_show": True},
}
CUT = "cut joker"
SAVE = "Save"


def log(message: str) -> None:
    print(f"[entry-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- The deal, scored by the rules service -------------------------------------------------


@dataclass(frozen=True)
class Hand:
    outcome: str
    dealt: tuple  # the cards in the order dealt (how the natural way enters them)
    groups: tuple  # as the rules score them (how --grouped enters them)


@dataclass(frozen=True)
class Deal:
    key: str
    preset: str
    cut: object  # games.rules.Card
    declarer: str
    hands: dict[str, Hand]  # by seat order
    expected: dict[str, int]  # each player's score, from score_round


def declaring_groups(rng: random.Random, available: Counter, ruleset) -> list[tuple] | None:
    """Groups that declare: pure sequences (three to five of seven groups in a 21-card
    game, two or three of four in a 13-card one, the first a card longer in a 13-card
    hand) and sets of three suits for the rest; None if the shoe runs short."""
    from games.rules.cards import KING, SUITS, Card

    count = ruleset.hand_size // 3
    sizes = [3] * count
    sizes[0] += ruleset.hand_size - 3 * count
    pure = rng.randint(3, 5) if ruleset.hand_size == 21 else rng.randint(2, 3)
    groups = []
    for number, size in enumerate(sizes):
        if number < pure:
            suit, start = rng.choice(SUITS), rng.randint(1, KING - size + 1)
            group = tuple(Card(rank, suit) for rank in range(start, start + size))
        else:
            rank = rng.randint(1, KING)
            group = tuple(Card(rank, suit) for suit in rng.sample(SUITS, 3))
        need = Counter(group)
        if any(available[card] < n for card, n in need.items()):
            return None
        available.subtract(need)
        groups.append(group)
    rng.shuffle(groups)
    return groups


def try_deal(rng: random.Random, key: str, preset: str, players: int) -> Deal | None:
    from games.rules import PlayerHand, RulesError, all_cards, arrange, get_ruleset, score_round

    ruleset = get_ruleset(preset)
    available = Counter({card: ruleset.decks for card in all_cards()})
    winning = declaring_groups(rng, available, ruleset)
    if winning is None:
        return None
    deck = list(available.elements())
    rng.shuffle(deck)
    cut = deck.pop()
    names = NAMES[:players]
    declarer = rng.choice(names)
    hands: dict[str, Hand] = {}
    for name in names:
        if name == declarer:
            dealt = [card for group in winning for card in group]
            rng.shuffle(dealt)  # as the declarer picked them up, not as laid down
            hands[name] = Hand("declared", tuple(dealt), tuple(winning))
            continue
        dealt = [deck.pop() for _ in range(ruleset.hand_size)]
        best = arrange(ruleset, cut, dealt)
        if best.declaration:
            return None  # a second hand that declares: deal again
        hands[name] = Hand("shown", tuple(dealt), best.groups)
    try:
        result = score_round(
            ruleset, cut, [PlayerHand(n, h.outcome, h.groups) for n, h in hands.items()]
        )
    except RulesError:
        return None
    if result.players[names.index(declarer)].declaration is None:
        return None
    expected = {player.name: player.score for player in result.players}
    return Deal(key, preset, cut, declarer, hands, expected)


def deal(rng: random.Random, key: str, preset: str, players: int) -> Deal:
    while True:
        dealt = try_deal(rng, key, preset, players)
        if dealt is not None:
            return dealt


# --- The app: a throwaway database and a live server -----------------------------------------


def set_up_django(folder: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    # Development settings (WhiteNoise serves the static files from the finders, no
    # collectstatic) with DEBUG off, as a phone meets the app: templates cached.
    os.environ["DJANGO_ENV"] = "development"
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/entry.sqlite3"
    # The server and this process share the key: a signed-in cookie made here holds there.
    os.environ["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here
    # between two pages are plain synchronous ones.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(folder: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with open(Path(folder) / "server.log", "wb") as server_log:  # the server keeps it open
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"{HOST}:{port}"],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=server_log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"{url}/static/js/events.js", timeout=2) as answer:
                if answer.status == 200:
                    return server, url
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"the server did not start:\n{(Path(folder) / 'server.log').read_text()}")


def session_cookie(user) -> dict:
    """The signed-in session cookie of ``user``, as tests/support/pages.py's sign_in
    makes it (the browser tests' way: signing in by form is tested elsewhere)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    return {"name": cookie.key, "value": cookie.value, "domain": HOST, "path": "/"}


# --- Driving the phone -------------------------------------------------------------------


@dataclass
class Effort:
    taps: int = 0
    keys: int = 0
    scrolls: int = 0

    @property
    def seconds(self) -> float:
        return round(
            SECONDS["taps"] * self.taps
            + SECONDS["keys"] * self.keys
            + SECONDS["scrolls"] * self.scrolls,
            1,
        )

    def add(self, other: Effort) -> None:
        self.taps += other.taps
        self.keys += other.keys
        self.scrolls += other.scrolls

    def as_dict(self) -> dict:
        return {
            "taps": self.taps,
            "keys": self.keys,
            "scrolls": self.scrolls,
            "seconds": self.seconds,
        }


@dataclass
class Scorer:
    """The person at the table: taps, types and scrolls, each counted against the
    step (the cut joker, a player, Save) it serves."""

    page: object
    steps: dict[str, Effort] = field(default_factory=dict)
    # Which element was off-screen when it was needed, for the report.
    off_screen: list[str] = field(default_factory=list)

    def spend(self, seconds: float) -> None:
        """The page's clock moves on as the person's does (its timers fire: the live
        preview's 300 ms wait, the picker's two seconds of keeping itself in view)."""
        self.page.clock.run_for(round(seconds * 1000))

    def settle(self) -> None:
        """Let the live preview land (its request answered and swapped in), as it has
        by the time a person moves on to the next step."""
        self.spend(0.35)
        self.page.locator(".htmx-request").first.wait_for(state="detached")
        self.spend(0.05)

    def effort(self, step: str) -> Effort:
        return self.steps.setdefault(step, Effort())

    def off_by(self, locator) -> str:
        """Where the element lies if it is not wholly on screen ("" if it is)."""
        box = locator.bounding_box()
        size = self.page.viewport_size
        if box is None:
            return "not shown"
        below = box["y"] + box["height"] - size["height"]
        if below > 0:
            return f"{below:.0f} px below the screen"
        if box["y"] < 0:
            return f"{-box['y']:.0f} px above the screen"
        if box["x"] < 0 or box["x"] + box["width"] > size["width"]:
            return "beside the screen"
        return ""

    def tap(self, step: str, locator, what: str) -> None:
        off = self.off_by(locator)  # bounding_box waits for the element
        if off:
            self.effort(step).scrolls += 1
            self.off_screen.append(f"{step}: {what}, {off}")
            locator.scroll_into_view_if_needed()
            self.spend(SECONDS["scrolls"])
        locator.tap()
        self.effort(step).taps += 1
        self.spend(SECONDS["taps"])

    def type(self, step: str, text: str) -> None:
        """One character at a time, as a phone's on-screen keyboard sends them: text
        input, with no key codes (the app reads only input events). Playwright's key
        presses (``keyboard.type``) lost whole hands on Chromium's headless shell: a
        focused, writable field got the ``keydown`` of every key and no text, a player
        a run (2026-11-26 and 27)."""
        for character in text:
            self.page.keyboard.insert_text(character)
        self.effort(step).keys += len(text)
        self.spend(SECONDS["keys"] * len(text))


def player(page, name: str):
    return page.locator(f'fieldset[data-player="{name}"]')


def groups_field(page, name: str):
    return player(page, name).locator("textarea[data-groups]")


def pick(page, code: str):
    return page.locator(f'[data-picker] [data-card="{code}"]')


def typed_text(hand: Hand, grouped: bool) -> str:
    """Lower case (no shift key), no spaces; "|" between groups only with --grouped."""
    if grouped:
        return "|".join("".join(c.code for c in group) for group in hand.groups).lower()
    return "".join(card.code for card in hand.dealt).lower()


def choose_declared(scorer: Scorer, name: str) -> None:
    radio = player(scorer.page, name).locator('input[type="radio"][value="declared"]')
    scorer.tap(name, radio, "the Declared outcome button")


def start_hand(scorer: Scorer, name: str, hand: Hand):
    """Before a player's cards: the preview of the last hand lands, the declarer's
    outcome is tapped. Returns the player's groups field."""
    scorer.settle()
    if hand.outcome == "declared":
        choose_declared(scorer, name)
    return groups_field(scorer.page, name)


def enter_with_picker(scorer: Scorer, played: Deal, grouped: bool) -> None:
    page = scorer.page
    scorer.tap(CUT, pick(page, played.cut.code), f"the cut card {played.cut.code} in the picker")
    for name, hand in played.hands.items():
        field_ = start_hand(scorer, name, hand)
        # The picker moves on by itself; were it elsewhere, a person taps the field.
        if not field_.evaluate("el => el.hasAttribute('data-picker-target')"):
            log(f"the picker was not on {name}'s hand: tapping the field")
            scorer.tap(name, field_, "the Groups field")
        groups = hand.groups if grouped else (hand.dealt,)
        for number, group in enumerate(groups):
            if number:
                scorer.tap(name, page.locator('[data-picker] [data-key="group"]'), "New group")
            for card in group:
                scorer.tap(name, pick(page, card.code), f"the card {card.code} in the picker")


def enter_typed(scorer: Scorer, played: Deal, grouped: bool) -> None:
    page = scorer.page
    keyboard = page.locator('[data-picker] [data-key="keyboard"]')
    cut = page.locator("input[data-cut]")
    if keyboard.count() and keyboard.get_attribute("aria-pressed") == "false":
        # A touch screen keeps the system keyboard closed for the picker: one tap
        # opens it (and focuses the field the picker serves, the cut joker).
        scorer.tap(CUT, keyboard, "the picker's keyboard key")
    if not cut.evaluate("el => el === document.activeElement"):
        scorer.tap(CUT, cut, "the Cut joker field")
    scorer.type(CUT, played.cut.code.lower())
    for name, hand in played.hands.items():
        field_ = start_hand(scorer, name, hand)
        if not field_.evaluate("el => el === document.activeElement"):
            scorer.tap(name, field_, "the Groups field")
        scorer.type(name, typed_text(hand, grouped))


def save(scorer: Scorer, number: int) -> list[str]:
    """Tap Save; the problems listed if the round was not saved."""
    page = scorer.page
    scorer.settle()  # a person glances at the settlement before saving
    scorer.tap(SAVE, page.locator("[data-save]"), "the Save button")
    page.locator(f'[data-saved="{number}"], [data-problems]').first.wait_for(timeout=20_000)
    problems = page.locator("[data-problems] li")
    return [problems.nth(i).inner_text() for i in range(problems.count())]


def stored_scores(session_pk: int) -> dict[str, int]:
    from games.models import HandEntry

    entries = HandEntry.objects.filter(round__session_id=session_pk, round__number=1)
    return dict(entries.values_list("player__name", "score"))


def enter(
    browser,
    url: str,
    cookie: dict,
    session_pk: int,
    played: Deal,
    way: str,
    args,
    steps=None,
    expected: dict[str, int] | None = None,
) -> dict:
    """One way of entering ``played`` (``steps``: what the scorer does, for a way of
    its own), read back against ``expected`` (the deal's scores unless given)."""
    from django.urls import reverse

    expected = expected or played.expected

    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, base_url=url
    )
    context.add_cookies([cookie])
    # The page's timers run on a clock the script moves at a person's pace (Scorer.spend).
    context.clock.install()
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda error: log(f"page error: {error}"))
    try:
        page.goto(reverse("games:session_detail", args=[session_pk]))
        page.locator("[data-picker]:not([hidden])").wait_for()
        scorer = Scorer(page)
        scorer.spend(1)  # the page as it stands a second after it opened
        started = time.perf_counter()
        if steps is not None:
            steps(scorer)
        elif way == "picker":
            enter_with_picker(scorer, played, args.grouped)
        else:
            enter_typed(scorer, played, args.grouped)
        problems = save(scorer, 1)
        wall = time.perf_counter() - started
        coarse = page.evaluate("matchMedia('(pointer: coarse)').matches")
    finally:
        context.close()
    stored = stored_scores(session_pk)
    total = Effort()
    for effort in scorer.steps.values():
        total.add(effort)
    players = {}
    for name, hand in played.hands.items():
        players[name] = scorer.effort(name).as_dict() | {
            "outcome": hand.outcome,
            "expected": expected[name],
            "stored": stored.get(name),
        }
    report = total.as_dict() | {
        "taps_and_keys": total.taps + total.keys,
        "saved": bool(stored) and stored == expected,
        "players": players,
        "cut_joker": scorer.effort(CUT).as_dict(),
        "save": scorer.effort(SAVE).as_dict(),
        "grouped": args.grouped,
        "touch": coarse,
        "off_screen": scorer.off_screen,
        "wall_seconds": round(wall, 1),
    }
    if problems:
        report["problems"] = problems
    target = TARGETS.get((played.key, way))
    if target:
        report["target"] = target | {
            "met": all(report[figure] <= limit for figure, limit in target.items())
        }
    return report


# --- Counted at the table: the losers' figures typed -------------------------------------------


def said_figures(played: Deal) -> dict:
    """Each loser's figures, as they would say them at the table: what ``hand_figures``
    gives their hand under the deal's rules, a value of 0 left out (nothing to say)."""
    from games.rules import HandFigures, PlayerHand, get_ruleset, hand_figures

    ruleset = get_ruleset(played.preset)
    said = {}
    for name, hand in played.hands.items():
        if hand.outcome == "declared":
            continue
        given = hand_figures(ruleset, played.cut, PlayerHand(name, hand.outcome, hand.groups))
        kept = {
            figure: value
            for figure, value in given.as_dict().items()
            if figure == "count" or value != 0
        }
        said[name] = HandFigures(**kept)
    return said


def scores_as_entered(played: Deal, way: str, said: dict) -> dict[str, int]:
    """What the rules service scores for the round as entered: the declarer by cards
    (or, trusted, by the show alone), the losers by their figures."""
    from games.rules import HandFigures, PlayerHand, get_ruleset, score_round

    ruleset = get_ruleset(played.preset, COUNTS[way])
    trusted = ruleset.trust_show
    hands = []
    for name, hand in played.hands.items():
        if name in said:
            hands.append(PlayerHand(name, hand.outcome, figures=said[name]))
        elif trusted:
            hands.append(PlayerHand(name, hand.outcome, figures=HandFigures()))
        else:
            hands.append(PlayerHand(name, hand.outcome, hand.groups))
    return {player.name: player.score for player in score_round(ruleset, played.cut, hands).players}


def enter_counts(scorer: Scorer, played: Deal, said: dict, trusted: bool) -> None:
    """The cut joker on the picker; the declarer's Declared and, unless the show is
    trusted, their cards on the picker (Declared turns the counted hand to its cards,
    the picker goes there); each loser's figures, a tap on each field and its digits."""
    page = scorer.page
    scorer.tap(CUT, pick(page, played.cut.code), f"the cut card {played.cut.code} in the picker")
    name = played.declarer
    scorer.settle()
    choose_declared(scorer, name)
    if not trusted:
        field_ = groups_field(page, name)
        if not field_.evaluate("el => el.hasAttribute('data-picker-target')"):
            log(f"the picker was not on {name}'s hand: tapping the field")
            scorer.tap(name, field_, "the Groups field")
        for card in played.hands[name].dealt:
            scorer.tap(name, pick(page, card.code), f"the card {card.code} in the picker")
    for name, figures in said.items():
        scorer.settle()
        for figure, value in figures.as_dict().items():
            box = player(page, name).locator(f'input[data-figure="{figure}"]')
            scorer.tap(name, box, f"the {figure.replace('_', ' ')} field")
            if value is not True:
                scorer.type(name, str(value))


def enter_by_counts(browser, url: str, cookie: dict, session_pk: int, played: Deal, way: str):
    """One of the --counts ways (``counts``, ``counts_trusted``) in its own session."""
    said = said_figures(played)
    trusted = bool(COUNTS[way].get("trust_show"))
    report = enter(
        browser,
        url,
        cookie,
        session_pk,
        played,
        way,
        argparse.Namespace(grouped=False),
        steps=lambda scorer: enter_counts(scorer, played, said, trusted),
        expected=scores_as_entered(played, way, said),
    )
    report["figures"] = {name: figures.as_dict() for name, figures in said.items()}
    return report


# --- Table mode: six phones and the scorer ---------------------------------------------------

TABLE_TARGET = 30  # seconds of table time
# Every hand is in before the scorer's page is looked at: its next poll shows them all.
# Fifteen polls that do not is a fault, not a slow machine.
TABLE_FOLLOW_LIMIT = 30
HAND_IN = "Hand in"


def seat_actions(seat: Scorer, name: str, hand: Hand, cut) -> list:
    """What the seat's phone does, one tap per action, in order: the cut joker (the
    picker asks for it first), the declarer's outcome, every card as dealt, Hand in."""
    page = seat.page
    actions = [lambda: seat.tap(name, pick(page, cut.code), f"the cut card {cut.code}")]
    if hand.outcome == "declared":
        actions.append(lambda: choose_declared(seat, name))
    for card in hand.dealt:
        actions.append(
            lambda card=card: seat.tap(name, pick(page, card.code), f"the card {card.code}")
        )

    def hand_in() -> None:
        seat.settle()  # the check of the last card lands, as a person glances at it
        seat.tap(HAND_IN, page.locator("[data-save]"), "the Hand in button")
        page.locator("[data-handed-in], [data-problems]").first.wait_for(timeout=20_000)

    actions.append(hand_in)
    return actions


def follow_the_table(scorer: Scorer, seats: dict[str, Scorer]) -> float:
    """The scorer's page follows the seats: its poll (every 2 s) runs on the scorer's
    clock, moved on half a second at a time until the page shows every hand in. Each
    poll that falls due is waited for until its answer is in the page, however long a
    loaded machine takes, so the seconds returned are the scorer's clock's alone.
    (Waiting a fixed 50 ms of real time instead left the loop done after about 3 s
    with hands still missing, and the Save button never came.)"""
    hands_in = scorer.page.locator('[data-table-seat][data-state="in"]')
    waited = 0.0
    while hands_in.count() < len(seats):
        if waited >= TABLE_FOLLOW_LIMIT:
            shown = scorer.page.locator("[data-table-seat]").evaluate_all(
                "els => els.map(e => e.dataset.tableSeat + ': ' + e.dataset.state)"
            )
            said = {
                name: seat.page.locator("[data-problems] li, [data-handed-in]").all_inner_texts()
                for name, seat in seats.items()
            }
            raise RuntimeError(
                f"the scorer's page shows {', '.join(shown)} after {waited:.0f} s of its "
                f"polls, every one answered; the phones say {said}"
            )
        scorer.spend(0.5)
        waited += 0.5
        # The poll due is answered: its element swapped out (the one swapped in still
        # settles, on the clock's next move) or, for "nothing new", its request done.
        in_flight = scorer.page.locator(".htmx-request:not(.htmx-settling)")
        in_flight.first.wait_for(state="detached")
    return waited


def phone_context(browser, url: str):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, base_url=url
    )
    context.clock.install()
    return context


def stop_the_clock(seat: Scorer) -> None:
    """From now on the seat phone's clock moves only when the script moves it
    (Scorer.spend): its poll (every 3 s) comes at the person's pace alone. Left running
    by itself as well, the poll brought the table's cut joker in before that phone's
    turn to tap it on a loaded machine (the six phones take turns, tap by tap), the tap
    went into its hand (22 cards, refused) and the round was never all in."""
    seat.page.clock.pause_at(datetime.now() + timedelta(seconds=1))


def enter_at_table(
    browser,
    url: str,
    cookie: dict,
    session_pk: int,
    played: Deal,
    actions=seat_actions,
    expected: dict[str, int] | None = None,
) -> dict:
    """Six phones enter their hands (``actions``: what each one taps and types, by
    default its cards), then the scorer saves; ``saved`` compares the round stored
    with ``expected`` (by default the deal's scores by its cards)."""
    from django.urls import reverse

    from games.models import GameSession

    expected = played.expected if expected is None else expected
    token = GameSession.objects.get(pk=session_pk).table_token
    contexts = []
    try:
        scorer_context = phone_context(browser, url)
        scorer_context.add_cookies([cookie])
        contexts.append(scorer_context)
        scorer = Scorer(scorer_context.new_page())
        scorer.page.set_default_timeout(20_000)
        scorer.page.goto(reverse("games:session_detail", args=[session_pk]))
        seats: dict[str, Scorer] = {}
        for name in played.hands:
            context = phone_context(browser, url)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(20_000)
            page.on("pageerror", lambda error: log(f"page error: {error}"))
            page.goto(reverse("games:table_seats", args=[token]))
            page.locator(f'[data-seat="{name}"]').tap()  # once a session: not counted
            page.locator("[data-picker]:not([hidden])").wait_for()
            seats[name] = Scorer(page)
            stop_the_clock(seats[name])
            seats[name].spend(1)
        started = time.perf_counter()
        queues = {
            name: actions(seats[name], name, hand, played.cut)
            for name, hand in played.hands.items()
        }
        while any(queues.values()):  # the six phones take turns, tap by tap
            for queue in queues.values():
                if queue:
                    queue.pop(0)()
        waited = follow_the_table(scorer, seats)
        save_button = scorer.page.locator("[data-table-save]")
        scorer.tap(SAVE, save_button, "the Save button of table mode")
        scorer.page.locator('[data-saved="1"]').wait_for(timeout=20_000)
        wall = time.perf_counter() - started
        problems = [
            seats[name].page.locator("[data-problems] li").all_inner_texts() for name in seats
        ]
    finally:
        for context in contexts:
            context.close()
    stored = stored_scores(session_pk)
    seat_reports = []
    for name, hand in played.hands.items():
        effort = Effort()
        for step in (name, HAND_IN):
            effort.add(seats[name].effort(step))
        seat_reports.append(
            {"name": name, "outcome": hand.outcome}
            | effort.as_dict()
            | {
                "expected": expected[name],
                "stored": stored.get(name),
                "off_screen": seats[name].off_screen,
            }
        )
    after = scorer.effort(SAVE)
    slowest = max(seat["seconds"] for seat in seat_reports)
    seconds = round(slowest + waited + after.seconds, 1)
    report = {
        "seconds": seconds,
        "slowest_seat": slowest,
        "seats": seat_reports,
        "scorer": after.as_dict() | {"waited": waited, "off_screen": scorer.off_screen},
        "saved": bool(stored) and stored == expected,
        "target": {"seconds": TABLE_TARGET, "met": seconds <= TABLE_TARGET},
        "wall_seconds": round(wall, 1),
    }
    if any(problems):
        report["problems"] = problems
    return report


def table_report(played: Deal, report: dict, title: str = "six phones at once") -> str:
    lines = [
        f"{played.key} — table mode: {title}, then the scorer's Save",
        f"  {'':<10} {'taps':>5} {'keys':>5} {'scrolls':>7} {'seconds':>8} "
        f"{'expected':>9} {'stored':>7}",
    ]
    for seat in report["seats"]:
        label = f"{seat['name']}*" if seat["outcome"] == "declared" else seat["name"]
        lines.append(
            f"  {label:<10} {seat['taps']:>5} {seat['keys']:>5} {seat['scrolls']:>7} "
            f"{seat['seconds']:>8.1f} {seat['expected']!s:>9} {seat['stored']!s:>7}"
        )
    scorer = report["scorer"]
    lines.append(
        f"  {'scorer':<10} {scorer['taps']:>5} {scorer['keys']:>5} {scorer['scrolls']:>7} "
        f"{scorer['seconds']:>8.1f}   (after the last hand; its page showed it "
        f"{scorer['waited']:.1f} s later)"
    )
    lines.append(
        f"  table time {report['seconds']:.1f} s = slowest seat {report['slowest_seat']:.1f} + "
        f"{scorer['waited']:.1f} + scorer {scorer['seconds']:.1f}; "
        f"{'saved' if report['saved'] else 'NOT SAVED'}"
    )
    lines.append(
        f"  target: ≤ {report['target']['seconds']} s — "
        f"{'met' if report['target']['met'] else 'not met'}"
        f"  (* declares; machine time {report['wall_seconds']} s)"
    )
    for seat in report["seats"]:
        for what in seat["off_screen"]:
            lines.append(f"  {seat['name']} scrolled to {what}")
    for what in scorer["off_screen"]:
        lines.append(f"  the scorer scrolled to {what}")
    for problem in report.get("problems", []):
        if problem:
            lines.append(f"  problem: {problem}")
    return "\n".join(lines)


# --- Table mode with counts: each phone types its own figures ---------------------------------

COUNTS_TABLE_TARGET = 10  # seconds of table time
# The house rules of a table that counts: each phone opens on its count (counts first)
# and the winner is taken on the table's show (trust_show), one tap. Without the trust,
# the winner taps the cut, Declared, 21 cards and Hand in: 14 s, the slowest seat.
COUNTS_RULES = {"hand_entry": "counts_first", "trust_show": True}
# What a figure's field is called on a seat's phone (games/forms/table.py).
FIGURE_FIELDS = (("count", "Your count"), ("value_points", "Value points"), ("claims", "Claims"))
FIGURE_BOXES = (("two_point", "Two-point hand"), ("free_hand", "Free hand"))


def said_at_the_table(played: Deal) -> dict:
    """What each player says at the table: the figures their cards give the rules
    (``hand_figures``), the trusted winner's value points alone; a figure of 0 left
    unsaid (an empty field is 0), a count of 0 said all the same."""
    from dataclasses import replace

    from games.rules import PlayerHand, get_ruleset, hand_figures

    ruleset = get_ruleset(played.preset, COUNTS_RULES)
    said = {}
    for name, hand in played.hands.items():
        figures = hand_figures(ruleset, played.cut, PlayerHand(name, hand.outcome, hand.groups))
        said[name] = replace(
            figures,
            value_points=figures.value_points or None,
            claims=figures.claims or None,
        )
    return said


def counted_scores(played: Deal, said: dict) -> dict[str, int]:
    """Each player's score by the rules service for the figures said: what ``saved``
    compares the stored round with."""
    from games.rules import PlayerHand, get_ruleset, score_round

    ruleset = get_ruleset(played.preset, COUNTS_RULES)
    hands = [
        PlayerHand(name, hand.outcome, figures=said[name]) for name, hand in played.hands.items()
    ]
    return {player.name: player.score for player in score_round(ruleset, played.cut, hands).players}


def counts_seat_actions(said: dict):
    """What each seat's phone does on counts, one tap (or one figure typed) per action:
    the cut joker (the picker asks for it first), the winner's Declared (the Count
    switch turns itself on), each figure's field and its digits on the phone's
    keypad, a two-point or free hand's box, and Hand in."""

    def actions(seat: Scorer, name: str, hand: Hand, cut) -> list:
        page = seat.page
        steps = [lambda: seat.tap(name, pick(page, cut.code), f"the cut card {cut.code}")]
        if hand.outcome == "declared":
            steps.append(lambda: choose_declared(seat, name))
        figures = said[name]
        for figure, label in FIGURE_FIELDS:
            value = getattr(figures, figure)
            if value is None:
                continue
            field_ = player(page, name).get_by_label(label, exact=True)
            steps.append(lambda field_=field_, label=label: seat.tap(name, field_, f"{label}"))
            steps.append(lambda value=value: seat.type(name, str(value)))
        for figure, label in FIGURE_BOXES:
            if getattr(figures, figure):
                box = player(page, name).get_by_label(label, exact=True)
                steps.append(lambda box=box, label=label: seat.tap(name, box, f"{label}"))

        def hand_in() -> None:
            seat.settle()  # the check of the last figure lands, as a person glances at it
            seat.tap(HAND_IN, page.locator("[data-save]"), "the Hand in button")
            page.locator("[data-handed-in], [data-problems]").first.wait_for(timeout=20_000)

        steps.append(hand_in)
        return steps

    return actions


def table_counts_session(user, played: Deal) -> int:
    from games.services.sessions import create_session
    from games.services.table import open_table

    session = create_session(
        user,
        preset=played.preset,
        overrides=COUNTS_RULES,
        players=list(played.hands),
        name=f"{played.key} counted at the table",
    )
    open_table(session)
    return session.pk


def table_counts(browser, url: str, cookie: dict, session_pk: int, played: Deal) -> dict:
    """Table mode, each of the six phones typing its own figures, then the scorer's
    Save. ``taps`` and ``keys``: everyone's, the six phones' and the scorer's;
    ``seconds``: the slowest seat + the wait for the scorer's page + Save."""
    said = said_at_the_table(played)
    expected = counted_scores(played, said)
    report = enter_at_table(
        browser, url, cookie, session_pk, played, counts_seat_actions(said), expected
    )
    everyone = Effort()
    for seat in report["seats"]:
        everyone.add(Effort(seat["taps"], seat["keys"], seat["scrolls"]))
    scorer = report["scorer"]
    everyone.add(Effort(scorer["taps"], scorer["keys"], scorer["scrolls"]))
    seconds = report["seconds"]
    return {
        "taps": everyone.taps,
        "keys": everyone.keys,
        "scrolls": everyone.scrolls,
        "seconds": seconds,
        "saved": report["saved"],
        "winner": "trusted on the table's show (trust_show): Declared, then Hand in",
        "house_rules": COUNTS_RULES,
        "said": {name: figures.as_dict() for name, figures in said.items()},
        **{key: report[key] for key in ("slowest_seat", "seats", "scorer", "wall_seconds")},
        "target": {"seconds": COUNTS_TABLE_TARGET, "met": seconds <= COUNTS_TABLE_TARGET},
        **({"problems": report["problems"]} if "problems" in report else {}),
    }


# --- The report ----------------------------------------------------------------------------


def table(played: Deal, way: str, report: dict) -> str:
    from games.rules import format_cards

    head = (
        f"{played.key} ({played.preset}, cut {format_cards([played.cut])}, "
        f"{played.declarer} declares) — {way}{' (grouped)' if report['grouped'] else ''}"
    )
    lines = [head, f"  {'':<10} {'taps':>5} {'keys':>5} {'scrolls':>7} {'seconds':>8} "
             f"{'expected':>9} {'stored':>7}"]  # fmt: skip

    def row(label: str, figures: dict, expected="", stored="") -> str:
        return (
            f"  {label:<10} {figures['taps']:>5} {figures['keys']:>5} {figures['scrolls']:>7} "
            f"{figures['seconds']:>8.1f} {expected!s:>9} {stored!s:>7}"
        )

    lines.append(row(CUT, report["cut_joker"]))
    for name, figures in report["players"].items():
        label = f"{name}*" if figures["outcome"] == "declared" else name
        lines.append(row(label, figures, figures["expected"], figures["stored"]))
    lines.append(row(SAVE, report["save"]))
    lines.append(row("total", report, "", "saved" if report["saved"] else "NOT SAVED"))
    target = report.get("target")
    if target:
        wanted = ", ".join(
            f"≤ {limit} {'s' if figure == 'seconds' else figure}"
            for figure, limit in target.items()
            if figure != "met"
        )
        lines.append(f"  target: {wanted} — {'met' if target['met'] else 'not met'}")
    lines.append(f"  (* declares; machine time {report['wall_seconds']} s)")
    for what in report["off_screen"]:
        lines.append(f"  scrolled to {what}")
    for problem in report.get("problems", []):
        lines.append(f"  problem: {problem}")
    return "\n".join(lines)


def run(args) -> tuple[dict, list[str]]:
    from django.contrib.auth.models import User
    from playwright.sync_api import sync_playwright

    from games.services.sessions import create_session
    from tests.support.browser import CHROMIUM_FLAGS, HOW_TO_GET_CHROMIUM, find_chromium

    # The Chromium the browser tests drive (CHROMIUM_PATH, else the system's, else
    # Playwright's download).
    chromium = find_chromium(playwright_cache=True)
    if chromium is None:
        raise SystemExit(HOW_TO_GET_CHROMIUM)
    rng = random.Random(args.seed)
    deals = {key: deal(rng, key, preset, players) for key, preset, players in ROUNDS}
    user = User.objects.create_user("scorer", password=None)
    sessions = {
        (played.key, way): create_session(
            user,
            preset=played.preset,
            overrides={},
            players=list(played.hands),
            name=f"{played.key} by {way}",
        ).pk
        for played in deals.values()
        for way in WAYS
    }
    counted_sessions = {}
    if args.counts:
        played = deals["21-card-6p"]
        counted_sessions = {
            way: create_session(
                user,
                preset=played.preset,
                overrides=overrides,
                players=list(played.hands),
                name=f"{played.key} by {way}",
            ).pk
            for way, overrides in COUNTS.items()
        }
    table_session = None
    if args.table:
        from games.services.table import open_table

        played = deals["21-card-6p"]
        table_session = create_session(
            user,
            preset=played.preset,
            overrides={},
            players=list(played.hands),
            name=f"{played.key} at the table",
        )
        open_table(table_session)
    counts_session = table_counts_session(user, deals["21-card-6p"]) if args.counts else None
    cookie = session_cookie(user)
    with tempfile.TemporaryDirectory(prefix="entry-bench-") as folder:
        # The server's log lives beside it; the database is the one migrated here.
        server, url = start_server(folder)
        report: dict = {}
        tables = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
                try:
                    for key, played in deals.items():
                        report[key] = {}
                        for way in WAYS:
                            log(f"{key}: entering by {way}")
                            entered = enter(
                                browser, url, cookie, sessions[key, way], played, way, args
                            )
                            report[key][way] = entered
                            tables.append(table(played, way, entered))
                    for way, session_pk in counted_sessions.items():
                        played = deals["21-card-6p"]
                        log(f"{played.key}: entering by {way}")
                        entered = enter_by_counts(browser, url, cookie, session_pk, played, way)
                        report[played.key][way] = entered
                        tables.append(table(played, way, entered))
                    if table_session is not None:
                        played = deals["21-card-6p"]
                        log(f"{played.key}: entering at the table (six phones)")
                        at_table = enter_at_table(browser, url, cookie, table_session.pk, played)
                        report[played.key]["table"] = at_table
                        tables.append(table_report(played, at_table))
                    if counts_session is not None:
                        played = deals["21-card-6p"]
                        log(f"{played.key}: counted at the table (six phones type figures)")
                        counted = table_counts(browser, url, cookie, counts_session, played)
                        report[played.key]["table_counts"] = counted
                        tables.append(table_report(played, counted, "six phones typing counts"))
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return report, tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=11, help="the deal (default 11)")
    parser.add_argument(
        "--grouped",
        action="store_true",
        help="enter each hand in the solver's groups, with separators (for a server "
        "that does not arrange cards typed in any order)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="also enter the 6-player round in table mode: six phones at once, then the "
        "scorer's Save",
    )
    parser.add_argument(
        "--counts",
        action="store_true",
        help="also enter hands counted at the table: by one scorer, the winner by cards "
        "(counts) or by the table's show alone (counts_trusted); and in table mode "
        "(table_counts), six phones each typing its own figures, then the scorer's Save",
    )
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="entry-bench-db-") as folder:
        set_up_django(folder)
        from django.db import connections

        try:
            report, tables = run(args)
        finally:
            connections.close_all()
    log(f"done in {time.perf_counter() - started:.0f} s")
    if args.json:
        print(json.dumps(report))
    else:
        print("\n\n".join(tables))
        print(
            f"\nSeconds = {SECONDS['taps']} × taps + {SECONDS['keys']} × keys + "
            f"{SECONDS['scrolls']} × scrolls (seed {args.seed})."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
