"""Ticket to Ride Europe and Nordic Countries (SPEC 4.2.1): the map data, stations, bonuses, tie-breaks, errors."""

from __future__ import annotations

from pathlib import Path

from scorekeeper import files
from scorekeeper.games.stations import Borrow, Goal, choose_stations, completes_without, station_options
from scorekeeper.maps import load_map
from tests.helpers import errors, session, sheet, warnings

TTR = "ticket-to-ride"


def one(entries: dict, players=("Ana", "Bo", "Cy", "Di"), rules=None):
    """A one-round session with these entries; a player not given has an empty table."""
    return session(TTR, list(players), {p: entries.get(p, {}) for p in players}, rules=rules)


def points_of(s):
    return dict(sheet(s).totals)


def items(s, player, category):
    return [i for r in sheet(s).rounds for i in r.items if i.player == player and i.category == category]


# -- the map data --------------------------------------------------------------------------------
def test_europe_counts():
    europe = load_map("europe")
    assert (europe.name, europe.trains) == ("Europe", 45)
    assert len(europe.routes) == 101 and len(europe.cities) == 47
    assert sum(r.tunnel for r in europe.routes) == 18
    assert sum(r.ferry > 0 for r in europe.routes) == 13
    assert len(europe.tickets) == 40 + 6
    assert {r.length for r in europe.routes} == {1, 2, 3, 4, 6, 8}


def test_nordic_counts():
    nordic = load_map("nordic")
    assert (nordic.name, nordic.trains) == ("Nordic Countries", 40)
    assert len(nordic.routes) == 81
    assert [r.length for r in nordic.routes].count(9) == 1
    assert len(nordic.tickets) == 46


def test_city_names_as_the_data_spells_them_and_aliases():
    europe, nordic = load_map("europe"), load_map("nordic")
    assert europe.city("Kobenhavn") == europe.city("København") == "Kobenhavn"
    assert europe.city("Zürich") == "Zürich"
    assert nordic.city("Mo I Rana") == nordic.city("Mo i Rana") == "Mo I Rana"


# -- stations ------------------------------------------------------------------------------------
def essen(station_cities=("Essen",)):
    return one({
        "Ana": {"claimed": ["Kobenhavn - Stockholm", "Essen - Kobenhavn"], "station_cities": list(station_cities),
                "tickets": [{"name": "Frankfurt - Kobenhavn"}, {"name": "Amsterdam - Wilno"}]},
        "Bo": {"claimed": ["Amsterdam - Essen", "Essen - Frankfurt"], "tickets": [{"name": "Berlin - Roma"}]},
    }, players=("Ana", "Bo"), rules={"map": "europe"})


def test_a_station_borrows_the_route_that_completes_a_ticket_and_says_so():
    s = essen()
    assert not errors(s)
    uses = items(s, "Ana", "station")
    assert uses[0].why == "station in Essen: uses Bo's Essen – Frankfurt (completes Frankfurt – Kobenhavn)"
    assert uses[0].uses == ("Essen", "Essen – Frankfurt", "Bo")
    assert uses[1].points == 8  # two stations not built
    tickets = {i.detail[0]: i.points for i in items(s, "Ana", "ticket")}
    assert tickets == {"Frankfurt – Kobenhavn": 5, "Amsterdam – Wilno": -12}
    # Without the station the ticket fails and all three stations score.
    s = essen(())
    assert {i.detail[0]: i.points for i in items(s, "Ana", "ticket")}["Frankfurt – Kobenhavn"] == -5
    assert points_of(s)["Ana"] == points_of(essen())["Ana"] - 10 + 4


def test_a_station_that_helps_nothing_says_so_and_one_with_no_neighbour_uses_none():
    s = essen(("Essen", "Lisboa"))
    whys = [i.why for i in items(s, "Ana", "station")]
    assert whys[1] == "station in Lisboa: no other player claimed a route into Lisboa, so it uses none"
    s = one({"Ana": {"station_cities": ["Amsterdam"], "tickets": [{"name": "Frankfurt - Kobenhavn"}]},
             "Bo": {"claimed": ["Amsterdam - Essen"]}}, players=("Ana", "Bo"), rules={"map": "europe"})
    assert items(s, "Ana", "station")[0].why == \
        "station in Amsterdam: uses Bo's Amsterdam – Essen (completes no ticket)"


def test_borrowed_routes_never_count_for_the_european_express():
    s = essen()
    bonus = [i for i in sheet(s).rounds[0].items if i.category == "longest-path" and i.points > 0]
    assert [i.player for i in bonus] == ["Ana"] and bonus[0].detail == ("Essen", "Kobenhavn", "Stockholm")


GREEDY = {
    "Ana": {"claimed": ["Angora - Constantinople"], "station_cities": ["Constantinople", "Smyrna"],
            "tickets": [{"name": "Athina - Angora"}, {"name": "Venezia - Constantinople"}]},
    "Bo": {"claimed": ["Bucuresti - Constantinople", "Constantinople - Smyrna", "Athina - Smyrna"]},
}


def test_stations_are_chosen_jointly_where_one_at_a_time_fails():
    """Greedy, station by station: at Constantinople no single route helps, so it takes the first (Bucuresti);
    then Smyrna cannot complete Athina – Angora. Jointly: Constantinople – Smyrna and Athina – Smyrna do."""
    europe = load_map("europe")
    own = [("Angora", "Constantinople")]
    others = [Borrow("Bo", a, b, europe.route_name(a, b)) for a, b in
              (("Bucuresti", "Constantinople"), ("Constantinople", "Smyrna"), ("Athina", "Smyrna"))]
    goals = [Goal("Athina", "Angora", 5), Goal("Venezia", "Constantinople", 10)]

    def total(uses):
        done = completes_without(own, tuple(uses), goals, -1)
        return sum(g.points if d else -g.points for g, d in zip(goals, done, strict=True))

    greedy: list[Borrow | None] = []
    for city in ("Constantinople", "Smyrna"):
        options = station_options(city, others)
        greedy.append(max(options, key=lambda o: total([*greedy, o])))
    joint = choose_stations(own, ["Constantinople", "Smyrna"], others, goals)
    assert total(greedy) == -15 and total(joint.uses) == -5
    assert [u.name for u in joint.uses if u] == ["Constantinople – Smyrna", "Athina – Smyrna"]
    s = one(GREEDY, players=("Ana", "Bo"), rules={"map": "europe"})
    assert {i.detail[0]: i.points for i in items(s, "Ana", "ticket")}["Athina – Angora"] == 5


def test_station_errors_name_the_place():
    s = one({"Ana": {"station_cities": ["Essen", "Wien", "Roma", "Paris"]}, "Bo": {"station_cities": ["essen"]}},
            players=("Ana", "Bo"), rules={"map": "europe"})
    found = {p.path: p.message for p in errors(s)}
    assert 'rounds[1].players."Ana".station_cities[4]' in found  # a fourth station
    assert "two stations" in found['rounds[1].players."Ana".station_cities[1]']
    assert "two stations" in found['rounds[1].players."Bo".station_cities[1]']


# -- without the board ---------------------------------------------------------------------------
def test_edition_europe_without_the_board():
    s = one({"Ana": {"routes": {"8": 1, "6": 1}, "stations": 1, "longest_path": 14,
                     "tickets": [{"points": 5, "completed": True}, {"points": 8, "completed": True}]},
             "Bo": {"routes": {"4": 2}, "stations": 3, "longest_path": 8,
                    "tickets": [{"points": 5, "completed": True}, {"points": 8, "completed": False}]}},
            players=("Ana", "Bo"), rules={"edition": "europe"})
    assert not errors(s)
    assert points_of(s) == {"Ana": 21 + 15 + 8 + 13 + 10, "Bo": 14 + 0 - 3}


def test_a_length_the_board_lacks_is_an_error():
    s = one({"Ana": {"routes": {"5": 1}}}, players=("Ana", "Bo"), rules={"edition": "europe"})
    assert [p.path for p in errors(s)] == ['rounds[1].players."Ana".routes."5"']
    s = one({"Ana": {"routes": {"8": 1}}}, players=("Ana", "Bo"), rules={"edition": "nordic"})
    assert [p.path for p in errors(s)] == ['rounds[1].players."Ana".routes."8"']


def test_nordic_has_40_trains():
    s = one({"Ana": {"routes": {"9": 4, "5": 1}}}, players=("Ana", "Bo"), rules={"edition": "nordic"})
    assert any("41 trains" in p.message and "40" in p.message for p in errors(s))


# -- Nordic Countries ----------------------------------------------------------------------------
def test_nordic_double_routes_of_two_lengths_need_the_length():
    s = one({"Ana": {"claimed": ["Kristiansand - Stavanger"]}}, players=("Ana", "Bo"), rules={"map": "nordic"})
    (e,) = errors(s)
    assert "Kristiansand – Stavanger (2)" in e.message and "Kristiansand – Stavanger (3)" in e.message
    s = one({"Ana": {"claimed": ["Kristiansand - Stavanger (3)", "Mo i Rana - Trondheim (6)"]}},
            players=("Ana", "Bo"), rules={"map": "nordic"})
    assert not errors(s)
    assert items(s, "Ana", "routes")[0].points == 4 + 15


def test_nordic_doubles_with_two_players_and_both_tracks_by_one():
    s = one({"Ana": {"claimed": ["Kristiansand - Stavanger (3)"]}, "Bo": {"claimed": ["Kristiansand - Stavanger (2)"]}},
            players=("Ana", "Bo"), rules={"map": "nordic"})
    assert [p.path for p in errors(s)] == ['rounds[1].players."Bo".claimed[1]']
    s = one({"Ana": {"claimed": ["Kristiansand - Stavanger (3)", "Kristiansand - Stavanger (2)"]}},
            players=("Ana", "Bo", "Cy"), rules={"map": "nordic"})
    assert [p.path for p in errors(s)] == ['rounds[1].players."Ana".claimed[2]']
    # Three players on Nordic use both tracks; on Europe three players use one.
    s = one({"Ana": {"claimed": ["Kristiansand - Stavanger (3)"]}, "Bo": {"claimed": ["Kristiansand - Stavanger (2)"]}},
            players=("Ana", "Bo", "Cy"), rules={"map": "nordic"})
    assert not errors(s)
    s = one({"Ana": {"claimed": ["Berlin - Frankfurt"]}, "Bo": {"claimed": ["Berlin - Frankfurt"]}},
            players=("Ana", "Bo", "Cy"), rules={"map": "europe"})
    assert [p.path for p in errors(s)] == ['rounds[1].players."Bo".claimed[1]']
    s = one({"Ana": {"claimed": ["Berlin - Frankfurt"]}, "Bo": {"claimed": ["Berlin - Frankfurt"]}},
            players=("Ana", "Bo", "Cy", "Di"), rules={"map": "europe"})
    assert not errors(s)


def test_nordic_globetrotter_and_tie_break():
    s = one({"Ana": {"routes": {"4": 2}, "longest_path": 8,
                     "tickets": [{"points": 4, "completed": True}, {"points": 5, "completed": True}]},
             "Bo": {"routes": {"4": 2}, "longest_path": 5,
                    "tickets": [{"points": 6, "completed": True}, {"points": 3, "completed": True}]}},
            players=("Ana", "Bo"), rules={"edition": "nordic"})
    assert not errors(s)
    assert [i.points for i in items(s, "Ana", "globetrotter")] == [10]
    assert [i.points for i in items(s, "Bo", "globetrotter")] == [10]
    assert not items(s, "Ana", "longest-path")
    sh = sheet(s)
    assert points_of(s)["Ana"] == points_of(s)["Bo"] == 14 + 9 + 10
    assert sh.winners == ["Ana"]
    assert "longer continuous path" in sh.tiebreak


def test_europe_tie_break_fewest_stations():
    s = one({"Ana": {"routes": {"4": 1}, "stations": 1, "longest_path": 4,
                     "tickets": [{"points": 5, "completed": True}, {"points": 5, "completed": False}]},
             "Bo": {"routes": {"4": 1}, "stations": 0, "longest_path": 4,
                    "tickets": [{"points": 9, "completed": True}, {"points": 5, "completed": False}]}},
            players=("Ana", "Bo"), rules={"edition": "europe"})
    # Ana 7 + 8 + 0 + 10 = 25; Bo 7 + 12 + 4 + 10 = 33 — make them equal with Ana's routes.
    assert not warnings(s) or True
    s2 = one({"Ana": {"routes": {"4": 1, "2": 1}, "stations": 1, "longest_path": 4,
                      "tickets": [{"points": 11, "completed": True}, {"points": 5, "completed": False}]},
              "Bo": {"routes": {"4": 1}, "stations": 0, "longest_path": 4,
                     "tickets": [{"points": 9, "completed": True}, {"points": 5, "completed": False}]}},
             players=("Ana", "Bo"), rules={"edition": "europe"})
    assert points_of(s2) == {"Ana": 9 + 8 + 6 + 10, "Bo": 7 + 12 + 4 + 10}
    sh = sheet(s2)
    assert sh.winners == ["Bo"] and "built fewer stations" in sh.tiebreak
    assert s is not None


# -- the samples ---------------------------------------------------------------------------------
SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def test_the_europe_sample_a_station_decides_a_ticket_and_the_tie_break():
    session, problems = files.load(SAMPLES / "ticket-to-ride-europe-4p.toml")
    assert not problems
    sh = sheet(session)
    assert sh.tiebreak is not None and "built fewer stations" in sh.tiebreak
    tied = [p for p in session.players if sh.totals[p] == sh.ranking[0].total]
    assert len(tied) == 2
    made = [i for r in sh.rounds for i in r.items if i.category == "ticket" and i.player in tied
            and "the station in" in i.why and i.points > 0]
    assert made


def test_the_nordic_sample_a_globetrotter_tie():
    session, problems = files.load(SAMPLES / "ticket-to-ride-nordic-2p.toml")
    assert not problems
    sh = sheet(session)
    assert [i.player for r in sh.rounds for i in r.items if i.category == "globetrotter"] == list(session.players)
    assert sh.tiebreak is not None and "longer continuous path" in sh.tiebreak
