"""A whole session as JSON (the command line's ``session``): the players, each
round's scores and the changes to the table between rounds in; the running totals,
who is out and when, rejoin offers, the next dealer and the winner out.

The replay itself is :func:`.totals.session_state`, the one the app's score table
uses: this module only reads the request into its arguments and writes its state
out, so the command line and the app cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError
from .rulesets import Ruleset, get_ruleset
from .totals import SEAT_CHANGES, SeatChange, Seating, SessionState, session_state


@dataclass(frozen=True)
class SessionPlay:
    """A session request read and checked: what :func:`.totals.session_state` takes."""

    ruleset: Ruleset
    players: tuple[str, ...]
    rounds: tuple[dict[str, int], ...]
    dealers: tuple[str, ...]
    first_dealer: str | None
    changes: tuple[SeatChange | Seating, ...]
    ended: bool

    def replay(self) -> SessionState:
        return session_state(
            self.ruleset,
            self.players,
            self.rounds,
            dealers=self.dealers,
            first_dealer=self.first_dealer,
            changes=self.changes,
            closed=self.ended,
        )


def session_request(data: object) -> dict[str, object]:
    """Replay a session given as JSON data (docs/reference/cli.md) and return the
    JSON result."""
    return session_report(parse_session(data).replay())


def parse_session(data: object) -> SessionPlay:
    """The session of a request; RulesError names the first field at fault."""
    if not isinstance(data, dict):
        raise RulesError("the session must be a JSON object", "")
    ruleset = get_ruleset(data.get("ruleset"), data.get("overrides") or {})
    players = _names(data.get("players"), "players")
    if len(players) < 2:
        raise RulesError("a session needs at least two players", "players")
    for index, name in enumerate(players):
        if name in players[:index]:
            raise RulesError(f"{name} is seated twice", f"players[{index}]")
    rounds = _rounds(data.get("rounds", []))
    dealers = _names(data.get("dealers", []), "dealers")
    if dealers and len(dealers) != len(rounds):
        raise RulesError(
            f"dealers must name one dealer a round: {len(rounds)}, not {len(dealers)}",
            "dealers",
        )
    first_dealer = data.get("first_dealer")
    if first_dealer is not None and (
        not isinstance(first_dealer, str) or first_dealer not in players
    ):
        raise RulesError(f"the first dealer {first_dealer!r} is not a player", "first_dealer")
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise RulesError("ended must be true or false", "ended")
    changes = tuple(_change(item, f"changes[{i}]") for i, item in enumerate(_list(data, "changes")))
    return SessionPlay(ruleset, players, rounds, dealers, first_dealer, changes, ended)


def _list(data: dict[str, object], key: str) -> list[object]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RulesError(f"{key} must be a list", key)
    return value


def _names(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RulesError(f"{where} must be a list of names", where)
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"each of {where} must be a name", f"{where}[{index}]")
    return tuple(value)


def _rounds(value: object) -> tuple[dict[str, int], ...]:
    if not isinstance(value, list):
        raise RulesError("rounds must be a list of rounds, each player: score", "rounds")
    rounds = []
    for index, scores in enumerate(value):
        if not isinstance(scores, dict):
            raise RulesError("each round must be an object of player: score", f"rounds[{index}]")
        for name, score in scores.items():
            if isinstance(score, bool) or not isinstance(score, int):
                raise RulesError(
                    f"{name}'s score must be a whole number, not {score!r}",
                    f"rounds[{index}].{name}",
                )
        rounds.append(dict(scores))
    return tuple(rounds)


def _change(item: object, where: str) -> SeatChange | Seating:
    """``{"after_round": n, "join": name}`` (or ``leave``, ``rejoin``), or
    ``{"after_round": n, "seats": [names]}``."""
    kinds = [*SEAT_CHANGES, "seats"]
    if not isinstance(item, dict):
        raise RulesError("each change must be an object", where)
    given = [key for key in kinds if key in item]
    if len(given) != 1:
        raise RulesError(f"a change has one of {', '.join(kinds)}", where)
    after = item.get("after_round")
    if isinstance(after, bool) or not isinstance(after, int) or after < 1:
        raise RulesError("after_round must be the number of a round played", f"{where}.after_round")
    (kind,) = given
    if kind == "seats":
        return Seating(after, _names(item["seats"], f"{where}.seats"))
    player = item[kind]
    if not isinstance(player, str) or not player.strip():
        raise RulesError(f"{kind} must name a player", f"{where}.{kind}")
    return SeatChange(kind, player, after)


def session_report(state: SessionState) -> dict[str, object]:
    """The JSON result: each round's line, each player's standing, what comes next."""
    ruleset = state.ruleset
    assert ruleset is not None, "a state replayed by session_state"
    join_problem = state.join_problem()
    return {
        "ruleset": ruleset.preset,
        "totals": ruleset.totals,
        "ceiling": state.ceiling,
        "rounds": [
            {
                "number": line.number,
                "dealer": line.dealer,
                "scores": line.scores,
                "totals": line.totals,
                "out": list(line.eliminated),
                "joined": line.joined,
                "left": list(line.left),
                "rejoined": line.rejoined,
                **({"seats": list(line.seats)} if line.seats else {}),
            }
            for line in state.lines
        ],
        "players": [_standing(state, name) for name in state.players],
        "out": state.eliminated_in,
        "left": state.left_after,
        "rejoin_offers": [
            {"player": offer.player, "total": offer.total}
            | ({"problem": offer.problem} if offer.problem else {})
            for offer in state.rejoin_offers()
        ],
        "join_total": None if join_problem else state.join_total(),
        **({"join_problem": join_problem} if join_problem else {}),
        "seats": list(state.seats),
        "toss_due": state.toss_due,
        "next_dealer": state.next_dealer,
        "finished": state.finished,
        "winners": list(state.winners),
    }


def _standing(state: SessionState, name: str) -> dict[str, object]:
    if name in state.left_after:
        status = "left"
    elif name in state.eliminated_in:
        status = "out"
    else:
        status = "in"
    return {
        "name": name,
        "total": state.totals[name],
        "status": status,
        "place": state.place(name),
        **({"joined_after": state.joined_after[name]} if name in state.joined_after else {}),
        **({"out_in": state.eliminated_in[name]} if name in state.eliminated_in else {}),
        **({"left_after": state.left_after[name]} if name in state.left_after else {}),
    }
