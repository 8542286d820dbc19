"""The JSON command line of DESIGN.md: run as a real process with only the standard
library (``python -S`` leaves out site-packages)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules import RulesError
from games.rules.__main__ import main
from games.rules.api import score_request
from tests.support.examples import CASES
from tests.support.hands import SEED_BEN, WIN_8S
from tests.support.pseudo_locale import pseudo_locale

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh interpreter without site-packages (``-S``) and, unless
    ``env`` is given, ignoring PYTHON* variables such as PYTHONPATH (``-E``)."""
    flags = ["-S"] if env is not None else ["-S", "-E"]
    return subprocess.run(
        [sys.executable, *flags, "-m", "games.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=30,
        env=env,
    )


def test_score_reads_stdin_and_prints_the_contract_fields():
    basic = next(p for p in CASES if p.name == "21-points-basic.json")
    case = json.loads(basic.read_text())
    done = run("score", stdin=json.dumps(case["input"]))
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert out["ruleset"] == "21-points"
    assert out["cut_joker"] == "8S"
    assert out["jokers"] == ["8C", "8D", "8H", "8S", "7S", "9S", "PJ"]
    asha = out["players"][0]
    assert asha["declaration"] == "three_pure"
    assert asha["groups"][0] == {"cards": ["2H", "3H", "4H"], "kind": "pure_sequence", "counted": 0}
    assert {k: asha[k] for k in ("hand_points", "value_points", "claims", "score")} == {
        "hand_points": 0,
        "value_points": -10,
        "claims": 0,
        "score": 122,
    }
    assert out["players"][2]["declaration"] is None


def test_score_reads_a_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(json.loads(CASES[0].read_text())["input"]))
    done = run("score", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout)["players"]


def test_groups_may_be_one_string_of_notation():
    request = {
        "ruleset": "21-points",
        "cut_joker": "8s",
        "players": [
            {
                "name": "Asha",
                "outcome": "declared",
                "groups": "2-4H | 5c6c7c | T-QD | KS KH KD | 4-6S | 9H 10H * | 3D,3C,8H",
            },
            {"name": "Chen", "outcome": "first_drop"},
        ],
    }
    done = run("score", stdin=json.dumps(request))
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["players"][0]["score"] == 30


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"ruleset": "gin", "cut_joker": "8S", "players": []}, "ruleset"),
        ({"ruleset": "21-points", "overrides": {"x": 1}, "cut_joker": "8S"}, "overrides.x"),
        ({"ruleset": "21-points", "cut_joker": "8X", "players": []}, "cut_joker"),
        (
            {
                "ruleset": "21-points",
                "cut_joker": "8S",
                "players": [
                    {"name": "A", "outcome": "declared", "groups": [["2H", "ZZ"]]},
                    {"name": "B", "outcome": "first_drop"},
                ],
            },
            "players[0].groups[0][1]",
        ),
        (
            {
                "ruleset": "21-points",
                "cut_joker": "8S",
                "players": [
                    {"name": "A", "outcome": "declared", "groups": [["2H", "3H", "4H"]]},
                    {"name": "B", "outcome": "first_drop"},
                ],
            },
            "players[0].groups",
        ),
        ([1, 2], ""),
    ],
)
def test_bad_input_exits_2_with_error_and_field(request_, field):
    done = run("score", stdin=json.dumps(request_))
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"error", "field"}
    assert out["field"] == field
    assert out["error"]


@pytest.mark.parametrize("stdin", ["", "{not json", "\xff", "null", '"text"'])
def test_garbage_never_gives_a_traceback(stdin):
    done = run("score", stdin=stdin)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "error" in json.loads(done.stdout)


def test_missing_file_and_unknown_command_are_json_errors():
    for args in (("score", "/no/such/file.json"), ("shuffle",), ()):
        done = run(*args)
        assert done.returncode == 2, args
        assert "error" in json.loads(done.stdout)


def test_presets_lists_every_preset_with_every_option():
    done = run("presets")
    assert done.returncode == 0
    listing = json.loads(done.stdout)
    assert list(listing["presets"]) == [
        "21-points",
        "21-paplu",
        "21-kodai",
        "13-points",
        "13-pool-101",
        "13-pool-201",
    ]
    assert listing["presets"]["21-paplu"]["hand_cap"] == 250
    assert set(listing["options"]) <= set(listing["presets"]["21-points"])


# Kodai, cut 8S: seven dublees each in its own group, and seven loose cards.
SEVEN_DUBLEES = "2H 2H | 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD QD | KS AH 3S 10C 10D 9H 4C"


def on_deal_round(on_deal) -> dict:
    return {
        "ruleset": "21-kodai",
        "cut_joker": "8S",
        "players": [
            {"name": "Asha", "outcome": "declared", "on_deal": on_deal, "groups": SEVEN_DUBLEES},
            {"name": "Ben", "outcome": "middle_drop"},
        ],
    }


def test_a_win_on_the_deal_is_marked_on_deal_true():
    # docs/rules §4: "The round input marks that winner with "on_deal": true; the dublees
    # way then needs 7 dublee groups instead of 8". Ben's middle drop adds 60.
    done = run("score", stdin=json.dumps(on_deal_round(True)))
    assert done.returncode == 0, done.stdout
    asha, ben = json.loads(done.stdout)["players"]
    assert (asha["on_deal"], asha["declaration"], asha["score"]) == (True, "dublees", 0)
    assert "on the deal: 7 dublees" in asha["breakdown"]
    assert "on_deal" not in ben  # only a winner on the deal carries it
    assert ben["score"] == 60


@pytest.mark.parametrize(
    ("request_", "field", "says"),
    [
        # Without it, 7 dublees are no declaration.
        (on_deal_round(False), "players[0].groups", "7 if won on the deal"),
        (on_deal_round("yes"), "players[0].on_deal", "true or false"),
        # Anywhere else than 21-kodai it is an input error.
        (on_deal_round(True) | {"ruleset": "21-points"}, "players[0].on_deal", "not played"),
    ],
)
def test_on_deal_errors_name_the_field(request_, field, says):
    done = run("score", stdin=json.dumps(request_))
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["field"] == field
    assert says in out["error"]


def test_a_false_declaration_keeps_the_error_shape_and_says_why():
    # The QA walk's hand: enough pure sequences, but dublees and six loose cards.
    groups = "2c3c4c | 5d6d7d | 8s9s10s | qh qh | kc kc | jd jd | 3s 6c 9d 10h kh jh"
    request_ = {
        "ruleset": "21-points",
        "cut_joker": "AS",
        "players": [
            {"name": "Esha", "outcome": "declared", "groups": groups},
            {"name": "Ben", "outcome": "first_drop"},
        ],
    }
    done = run("score", stdin=json.dumps(request_))
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert set(out) == {"error", "field"} and out["field"] == "players[0].groups"
    assert out["error"].startswith(
        "Esha's declaration is not valid: 3 pure sequences (enough), but 3S 6C 9D 10H KH JH "
        "is no group"
    )


def test_presets_list_the_options_of_the_exact_texts_with_their_meaning():
    listing = json.loads(run("presets").stdout)
    new = (
        "ace_marriage_pure",
        "on_deal_dublees",
        "on_deal_jokers",
        "deal_show_fixed",
        "value_payments",
        "first_drop_receives",
        "default_win_drop",
    )
    for option in new:
        assert listing["options"][option], option
    assert "rummy" in listing["options"]["ace_marriage_pure"]
    assert "first drop pays the declarer only" in listing["options"]["value_payments"]
    kodai, paplu, points = (
        listing["presets"][name] for name in ("21-kodai", "21-paplu", "21-points")
    )
    assert (kodai["on_deal_dublees"], kodai["on_deal_jokers"], kodai["ace_marriage_pure"]) == (
        7,
        8,
        True,
    )
    assert (paplu["deal_show_fixed"], paplu["value_payments"], paplu["first_drop_receives"]) == (
        60,
        "drop_rules",
        40,
    )
    assert (points["on_deal_dublees"], points["value_payments"]) == (None, "players_in")


def test_arrange_on_the_deal():
    cards = SEVEN_DUBLEES.replace("|", "")
    done = run("arrange", "--ruleset", "21-kodai", "--cut", "8S", "--on-deal", cards)
    assert json.loads(done.stdout)["declaration"] == "dublees"
    done = run("arrange", "--ruleset", "21-kodai", "--cut", "8S", cards)
    assert json.loads(done.stdout)["declaration"] is None
    done = run("arrange", "--ruleset", "21-points", "--cut", "8S", "--on-deal", cards)
    assert (done.returncode, json.loads(done.stdout)["field"]) == (2, "on_deal")


def test_arrange_prints_the_best_grouping():
    hand = "2D 3D 4D 9C 10C JC QD QS QC KH KH 5D 9D AS 7S 6H 6D 4C 2S JH 8C"
    done = run("arrange", "--ruleset", "21-points", "--cut", "8s", hand)
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert out["declaration"] is None
    assert (out["count"], out["hand_points"]) == (81, 81)
    assert sorted(out["cards"]) == sorted(hand.split())
    assert sum(g["counted"] for g in out["groups"]) == 81


def test_arrange_reports_a_declaration_and_takes_overrides():
    hand = "2H 3H 4H 5C 6C 7C 10D JD QD KS KH KD 4S 5S 6S 9H 10H PJ 3D 3C 8H"
    done = run("arrange", "--ruleset", "21-points", "--cut", "8S", hand)
    assert json.loads(done.stdout)["declaration"] == "three_pure"
    done = run(
        "arrange",
        "--ruleset",
        "21-points",
        "--overrides",
        '{"declarations": ["dublees"]}',
        "--cut",
        "8S",
        hand,
    )
    assert json.loads(done.stdout)["declaration"] is None


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("--ruleset", "gin", "--cut", "8S", "2H"), "ruleset"),
        (("--ruleset", "21-points", "--cut", "8X", "2H"), "cut_joker"),
        (("--ruleset", "21-points", "--cut", "8S", "2H ZZ"), "cards"),
        (("--ruleset", "21-points", "--cut", "8S", "KH KH KH KH"), "cards"),
        (("--ruleset", "21-points", "--cut", "8S", "--overrides", "{x", "2H"), "overrides"),
        (("--ruleset", "21-points", "--cut", "8S"), "arguments"),
    ],
)
def test_arrange_bad_input_exits_2(args, field):
    done = run("arrange", *args)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert json.loads(done.stdout)["field"] == field


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_every_shared_example_passes_through_the_command_line(path):
    # The example file itself (its "input" is the round) and the round on stdin give
    # the same result, and every expected figure of the example.
    case = json.loads(path.read_text())
    by_file = run("score", str(path))
    by_stdin = run("score", stdin=json.dumps(case["input"]))
    assert by_file.returncode == by_stdin.returncode == 0, by_file.stdout + by_file.stderr
    out = json.loads(by_file.stdout)
    assert out == json.loads(by_stdin.stdout)
    players = {player["name"]: player for player in out["players"]}
    for expected in case["expected"]["players"]:
        for key, value in expected.items():
            assert players[expected["name"]][key] == value, f"{expected['name']}.{key}"


def test_input_nested_too_deeply_is_bad_input_not_a_crash():
    done = run("score", stdin="[" * 100_000)
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "input is not valid JSON: nested too deeply",
        "field": "",
    }


def test_bytes_that_are_not_utf8_are_bad_input():
    done = subprocess.run(
        [sys.executable, "-S", "-E", "-m", "games.rules", "score"],
        input=b"\xff\xfe{",
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 2
    assert b"Traceback" not in done.stdout + done.stderr
    assert json.loads(done.stdout)["field"] == "FILE"


def test_json_is_read_and_written_as_utf8_whatever_the_locale():
    # An ASCII terminal encoding must not turn a name or a suit symbol into a traceback.
    request = {
        "ruleset": "21-points",
        "cut_joker": "8♠",
        "players": [
            {"name": "Ásha", "outcome": "declared", "groups": "2-4H | 5♣6♣7♣ | 10D JD QD | "
             "KS KH KD | 4-6S | 9H 10H JH | 3D 3C 3H"},
            {"name": "Bén", "outcome": "first_drop"},
        ],
    }  # fmt: skip
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    done = run("score", stdin=json.dumps(request, ensure_ascii=False), env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert [p["name"] for p in out["players"]] == ["Ásha", "Bén"]
    assert [p["score"] for p in out["players"]] == [30, -30]


def test_a_rule_that_replaced_the_count_is_a_key_of_its_own():
    # Ben's middle drop is a fixed 60 (docs/rules §5): "rule_applied" says so; Asha's
    # declaration costs nothing, and her answer keeps the shape it had before.
    done = run("score", stdin=json.dumps(on_deal_round(True)))
    asha, ben = json.loads(done.stdout)["players"]
    assert (ben["hand_points"], ben["rule_applied"]) == (60, "Middle drop: a fixed 60")
    assert "rule_applied" not in asha


# --- A hand counted at the table (docs/rules §5) -------------------------------------------


def counted_round(*players: dict, overrides: dict | None = None) -> dict:
    """21-points, cut 8S: Asha declares by her cards, then ``players``."""
    return {
        "ruleset": "21-points",
        "overrides": overrides or {"hand_entry": "counts"},
        "cut_joker": "8S",
        "players": [{"name": "Asha", "outcome": "declared", "groups": WIN_8S}, *players],
    }


def test_a_counted_hand_is_scored_and_marked_counted():
    # Ben's 102 and one spare lower joker (V = 10), as counted: what his cards score.
    ben = {"name": "Ben", "outcome": "shown", "count": 102, "value_points": 10}
    done = run("score", stdin=json.dumps(counted_round(ben)))
    assert done.returncode == 0, done.stdout + done.stderr
    asha, counted = json.loads(done.stdout)["players"]
    assert (counted["counted"], counted["figures"], counted["groups"]) == (
        True,
        {"count": 102, "value_points": 10},
        [],
    )
    assert (counted["hand_points"], counted["value_points"], counted["score"]) == (102, 10, -92)
    assert "counted" not in asha and "figures" not in asha  # cards answer as before
    by_cards = run("score", stdin=json.dumps(counted_round({**ben, "groups": SEED_BEN})))
    assert json.loads(by_cards.stdout)["field"] == "players[1].count"  # not both


def test_a_refused_figure_exits_2_naming_its_field():
    ben = {"name": "Ben", "outcome": "shown", "count": 215}
    done = run("score", stdin=json.dumps(counted_round(ben)))
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "Ben: a count of 215 is more than 21 cards can hold: at most 210",
        "field": "players[1].count",
    }


@pytest.mark.parametrize(("player", "field", "said"), [
    ({"count": "64"}, "count", "Ben: count must be a whole number, not '64'"),
    ({"count": True}, "count", "Ben: count must be a whole number, not True"),
    ({"two_point": "yes"}, "two_point", "Ben: two_point must be true or false"),
    ({"counted": 1}, "counted", "Ben: counted must be true or false"),
    ({"counted": False, "count": 64}, "count", "Ben: counted is false, but count is given"),
])  # fmt: skip
def test_figures_of_the_wrong_type_are_refused(player, field, said):
    with pytest.raises(RulesError) as raised:
        score_request(counted_round({"name": "Ben", "outcome": "shown", **player}))
    assert (raised.value.message, raised.value.field) == (said, f"players[1].{field}")


def test_counted_alone_marks_a_trusted_winner_with_nothing_to_count():
    data = counted_round(
        {"name": "Ben", "outcome": "shown", "count": 64},
        overrides={"hand_entry": "counts", "trust_show": True},
    )
    data["players"][0] = {"name": "Asha", "outcome": "declared", "counted": True}
    asha = score_request(data)["players"][0]
    assert (asha["counted"], asha["figures"], asha["groups"], asha["score"]) == (True, {}, [], 64)


# --- session ------------------------------------------------------------------------------

POOL_SESSION = {
    "ruleset": "13-pool-101",
    "players": ["Asha", "Ben", "Chen"],
    "rounds": [
        {"Asha": 0, "Ben": 80, "Chen": 20},
        {"Asha": 30, "Ben": 40, "Chen": 0},
        {"Asha": 20, "Chen": 40, "Dev": 0},
    ],
    "changes": [
        {"after_round": 2, "join": "Dev"},
        {"after_round": 2, "seats": ["Chen", "Asha", "Dev"]},
    ],
}


def test_session_prints_the_totals_who_is_out_the_offers_and_the_next_dealer():
    done = run("session", stdin=json.dumps(POOL_SESSION))
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert [line["totals"] for line in out["rounds"]] == [
        {"Asha": 0, "Ben": 80, "Chen": 20},
        {"Asha": 30, "Ben": 120, "Chen": 20},
        {"Asha": 50, "Ben": 120, "Chen": 60, "Dev": 31},
    ]
    assert out["rounds"][1]["out"] == ["Ben"]
    assert out["rounds"][1]["joined"] == {"Dev": 31}
    assert out["rounds"][2]["scores"]["Ben"] is None
    assert out["out"] == {"Ben": 2}
    assert out["rejoin_offers"] == [{"player": "Ben", "total": 61}]
    assert out["rounds"][2]["dealer"] == "Dev"  # the toss's last seat
    assert out["next_dealer"] == "Chen"  # Ben is out: the deal passes him by
    assert (out["finished"], out["winners"]) == (False, [])


def test_session_reads_a_file_and_names_the_winner(tmp_path):
    path = tmp_path / "session.json"
    ended = {
        "ruleset": "13-points",
        "players": ["Asha", "Ben"],
        "rounds": [{"Asha": 40, "Ben": -40}],
        "ended": True,
    }
    path.write_text(json.dumps(ended))
    done = run("session", str(path))
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert (out["finished"], out["winners"], out["next_dealer"]) == (True, ["Asha"], None)


def with_(**changes):
    return {**POOL_SESSION, **changes}


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ([], ""),
        (with_(ruleset="gin"), "ruleset"),
        (with_(overrides={"join_total": "half"}), "overrides.join_total"),
        (with_(players="Asha"), "players"),
        (with_(players=["Asha"]), "players"),
        (with_(players=["Asha", "Ben", "Asha"]), "players[2]"),
        (with_(players=["Asha", 7]), "players[1]"),
        (with_(rounds={"Asha": 1}), "rounds"),
        (with_(rounds=[[1, 2]]), "rounds[0]"),
        (with_(rounds=[{"Asha": "ten"}]), "rounds[0].Asha"),
        (with_(rounds=[{"Asha": True}]), "rounds[0].Asha"),
        (with_(rounds=[{"Zoe": 10}]), "rounds[0].Zoe"),
        (with_(dealers=["Asha"]), "dealers"),
        (with_(first_dealer="Zoe"), "first_dealer"),
        (with_(ended="yes"), "ended"),
        (with_(changes={"join": "Dev"}), "changes"),
        (with_(changes=["Dev"]), "changes[0]"),
        (with_(changes=[{"after_round": 1, "join": "Dev", "leave": "Ben"}]), "changes[0]"),
        (with_(changes=[{"after_round": 0, "join": "Dev"}]), "changes[0].after_round"),
        (with_(changes=[{"after_round": 1, "join": ""}]), "changes[0].join"),
        (with_(changes=[{"after_round": 1, "seats": "Asha Ben"}]), "changes[0].seats"),
        (
            with_(rounds=POOL_SESSION["rounds"][:2], changes=[{"after_round": 9, "join": "Dev"}]),
            "changes[0]",
        ),
        (with_(changes=[{"after_round": 1, "join": "Ben"}]), "changes[0]"),
        (with_(changes=[{"after_round": 1, "rejoin": "Ben"}]), "changes[0]"),
        (with_(changes=[{"after_round": 1, "leave": "Zoe"}]), "changes[0]"),
        (with_(changes=[{"after_round": 2, "seats": ["Asha", "Zoe"]}]), "changes[0].seats[1]"),
    ],
)
def test_session_bad_input_exits_2_with_error_and_field(request_, field):
    done = run("session", stdin=json.dumps(request_))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"error", "field"}
    assert out["field"] == field, out
    assert out["error"]


# A round the rules refuse for several reasons, a hand to arrange, and a session whose
# rejoin offers say why not: words of every kind the command line prints.
REFUSED_ROUND = {
    "ruleset": "21-kodai",
    "cut_joker": "AS",
    "players": [
        {"name": "Esha", "outcome": "declared", "on_deal": True, "groups": "2c3c4c | qh qh"},
        {"name": "Ben", "outcome": "deal_show", "count": 30},
        {"name": "Chen", "outcome": "shown", "groups": "AS AS AS AS"},
    ],
}
ENGLISH_RUNS = [
    *(("score", str(path)) for path in CASES),
    ("score", "-", json.dumps(REFUSED_ROUND)),
    ("session", "-", json.dumps(POOL_SESSION)),
    ("arrange", "--ruleset", "21-kodai", "--cut", "8S", "--on-deal", *SEED_BEN.split()),
    ("presets",),
]


@pytest.mark.parametrize("args", ENGLISH_RUNS, ids=[" ".join(run[:2]) for run in ENGLISH_RUNS])
def test_the_command_line_speaks_english_whatever_the_app_installed(args, capsys, monkeypatch):
    # Its words are a contract: in a process where the app has installed a language
    # (here the pseudo-locale), it prints, byte for byte, what it prints alone.
    *argv, stdin = args if args[1:2] == ("-",) else (*args, "")
    alone = run(*argv, stdin=stdin)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    refused = pytest.raises(SystemExit) if alone.returncode else contextlib.nullcontext()
    with pseudo_locale() as locale, refused:
        main(list(argv))
    assert capsys.readouterr().out == alone.stdout
    assert locale.asked == set()
