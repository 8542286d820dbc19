"""The ratings' full replay as migration 0018 runs it, frozen here: a migration runs
on every fresh database for as long as the project lives, and the app's own code
(games/services/ratings.py) moves on. Django's loader passes over a module whose
name starts with "_", so this is no migration itself.

Ratings are derived data: every finished session of a league rated by its players'
places (OpenSkill, Plackett-Luce), in the order played (day, then as created). This
replays them all, one order per game of the league where the models have the game
(0018 on), one per league where they do not (going back)."""

from openskill.models import PlackettLuce


def fill_ratings(apps) -> None:
    """Every league's ratings and their history again, with the historical models."""
    rating_model = apps.get_model("games", "Rating")
    change_model = apps.get_model("games", "RatingChange")
    session_model = apps.get_model("games", "GameSession")
    seat_model = apps.get_model("games", "Seat")
    by_game = any(field.name == "preset" for field in rating_model._meta.get_fields())
    model = PlackettLuce()
    change_model.objects.all().delete()
    rating_model.objects.all().delete()
    sessions = (
        session_model.objects.filter(league__isnull=False, status="finished")
        .order_by("league_id", "played_on", "pk")
        .values_list("pk", "league_id", "preset", "played_on")
    )
    seats: dict[int, list[tuple[int, int | None]]] = {}
    for session, player, place in (
        seat_model.objects.filter(session__league__isnull=False, session__status="finished")
        .order_by("session_id", "position")
        .values_list("session_id", "player_id", "place")
    ):
        seats.setdefault(session, []).append((player, place))
    # (league, game or None) -> its next sequence, and each player's (mu, sigma, count).
    sequences: dict[tuple, int] = {}
    skills: dict[tuple, tuple[float, float, int]] = {}
    changes = []
    for session, league, preset, played_on in sessions:
        table = seats.get(session, [])
        order = (league, preset if by_game else None)
        sequence = sequences.get(order, 0)
        sequences[order] = sequence + 1
        if len(table) < 2:
            continue
        teams = []
        for player, _ in table:
            mu, sigma, _count = skills.get((*order, player), (model.mu, model.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[place or len(table) for _, place in table])
        for (player, _), team in zip(table, rated, strict=True):
            mu, sigma = team[0].mu, team[0].sigma
            count = skills.get((*order, player), (0, 0, 0))[2] + 1
            skills[(*order, player)] = (mu, sigma, count)
            game = {"preset": preset} if by_game else {}
            changes.append(
                change_model(
                    league_id=league,
                    player_id=player,
                    session_id=session,
                    sequence=sequence,
                    played_on=played_on,
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                    **game,
                )
            )
    change_model.objects.bulk_create(changes, batch_size=2000)
    ratings = []
    for (league, preset, player), (mu, sigma, count) in skills.items():
        game = {"preset": preset} if by_game else {}
        ratings.append(
            rating_model(
                league_id=league,
                player_id=player,
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
                sessions=count,
                **game,
            )
        )
    rating_model.objects.bulk_create(ratings, batch_size=2000)
