"""Ticket to Finland: one test per rule sentence of SPEC 4.3, broken files, properties, and the sample by hand."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import files, games, store
from scorekeeper.games import GAMES
from scorekeeper.games.ticket_to_finland import tourist_value
from scorekeeper.model.session import Round, Session, SessionError
from tests.helpers import errors, points_of, problems, session, sheet, warnings
from tests.test_ticket_to_ride import NAMES, ROUTES, TICKETS, but_kept, reordered, ticket

TTF = "ticket-to-finland"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
BONUS_POINTS = {"longest_route": 5, "tunnels": 15, "ferries": 15, "longest_journey": 20, "cities_visited": 10,
                "valid_tickets": 10, "foreign_countries": 25, "perimeter_path": 25}
MEASURES = [m for m in BONUS_POINTS if m != "valid_tickets"]


def one(entries: dict, players=("Ana", "Bo", "Cy"), rules=None) -> Session:
    """A one-round session with these entries; a player not given has an empty (all zero) table."""
    return session(TTF, list(players), {p: entries.get(p, {}) for p in players}, rules=rules)


def tourist(points: int, completed: bool | None = True, name: str | None = None) -> dict:
    """A tourist card table."""
    return ticket(points, completed, name)


def items(sh, player=None, category=None):
    """The round's items that score, optionally of one player and one category (a bonus that went elsewhere is
    a 0-point item that says why: see `missed`)."""
    return [i for i in sh.rounds[0].items if i.points
            and (player is None or i.player == player) and (category is None or i.category == category)]


def missed(sh, category):
    """The 0-point items of a category: (player, why)."""
    return [(i.player, i.why) for i in sh.rounds[0].items if not i.points and i.category == category]


# -- routes and tickets as in Ticket to Ride ---------------------------------------------
def test_routes_score_by_the_route_table_and_route_points_as_given():
    sh = sheet(one({"Ana": {"routes": {"2": 1, "9": 1}}, "Bo": {"route_points": 33}}))
    assert points_of(sh, "Ana", "routes") == 2 + 27
    assert points_of(sh, "Bo", "routes") == 33


def test_routes_and_route_points_disagreeing_warn_and_routes_win():
    sess = one({"Ana": {"routes": {"5": 2}, "route_points": 21}})
    assert [p.path for p in but_kept(problems(sess))] == ['rounds[1].players."Ana".route_points']
    assert points_of(sheet(sess), "Ana", "routes") == 20


def test_more_than_45_trains_is_an_error():
    found = errors(one({"Cy": {"routes": {"9": 5, "1": 1}}}))
    assert [p.path for p in found] == ['rounds[1].players."Cy".routes']


def test_tickets_add_when_completed_and_subtract_when_failed():
    sh = sheet(one({"Ana": {"tickets": [ticket(12, True, "Göteborg – Oulu"), ticket(7, False), ticket(5, None)]}}))
    assert [(i.points, i.why) for i in items(sh, "Ana", "ticket")] == [
        (-7, "ticket 2 failed: -7"), (-5, "ticket 3 not marked completed, so failed: -5"),
        (12, "ticket Göteborg – Oulu completed: +12")]


# -- tourist cards -----------------------------------------------------------------------
def test_tourist_cards_add_when_completed_and_subtract_when_failed():
    sh = sheet(one({"Bo": {"tourists": [tourist(6, True, "Pori"), tourist(8, False, "Alta"), tourist(3, None)]}}))
    assert [(i.points, i.why) for i in items(sh, "Bo", "tourist")] == [
        (-8, "tourist card Alta failed: -8"), (-3, "tourist card 3 not marked completed, so failed: -3"),
        (6, "tourist card Pori completed: +6")]
    assert sh.totals["Bo"] == -5


@pytest.mark.parametrize("points", [3, 8])
def test_tourist_points_from_3_to_8_are_allowed(points):
    assert errors(one({"Ana": {"tourists": [tourist(points)]}})) == []


# -- bonuses -----------------------------------------------------------------------------
@pytest.mark.parametrize("measure", MEASURES)
def test_each_bonus_goes_to_the_greatest_measure(measure):
    sh = sheet(one({"Ana": {measure: 3}, "Bo": {measure: 5}, "Cy": {measure: 1}}))
    got = items(sh, category=f"bonus:{measure}")
    assert [(i.player, i.points) for i in got] == [("Bo", BONUS_POINTS[measure])]
    assert got[0].why.endswith(f"(5; next best 3): +{BONUS_POINTS[measure]}")


def test_bonus_values_follow_the_rulebook():
    entry = {m: 1 for m in MEASURES} | {"tickets": [ticket(4)]}
    sh = sheet(one({"Ana": entry}))
    assert {i.category: i.points for i in items(sh, "Ana") if i.category.startswith("bonus:")} == {
        f"bonus:{m}": v for m, v in BONUS_POINTS.items()}
    assert sh.totals["Ana"] == sum(BONUS_POINTS.values()) + 4


def test_most_valid_tickets_is_counted_from_completed_tickets():
    sh = sheet(one({
        "Ana": {"tickets": [ticket(3), ticket(4), ticket(10, False), ticket(10, False)]},  # 2 completed of 4
        "Bo": {"tickets": [ticket(3), ticket(4), ticket(5)]},  # 3 completed
    }))
    got = items(sh, category="bonus:valid_tickets")
    assert [(i.player, i.points) for i in got] == [("Bo", 10)]
    assert got[0].why == "the most valid tickets (3; next best 2): +10"


def test_no_bonus_when_the_greatest_measure_is_zero():
    sh = sheet(one({"Ana": {"tunnels": 0, "tickets": [ticket(5, False)]}, "Bo": {"route_points": 9}}))
    assert [i for i in sh.rounds[0].items if i.category.startswith("bonus:")] == []


def test_a_tie_gives_every_tied_player_the_bonus_by_default():
    sh = sheet(one({"Ana": {"ferries": 2}, "Bo": {"ferries": 2}, "Cy": {"ferries": 1}}))
    got = items(sh, category="bonus:ferries")
    assert [(i.player, i.points) for i in got] == [("Ana", 15), ("Bo", 15)]
    assert got[0].why == ('tied with Bo for the most ferries (2 each): +15 '
                          '(rule bonus_tie = "all")')


def test_rule_bonus_tie_none_gives_the_tied_nobody():
    sh = sheet(one({"Ana": {"ferries": 2}, "Bo": {"ferries": 2}, "Cy": {"tunnels": 1}},
                   rules={"bonus_tie": "none"}))
    assert items(sh, category="bonus:ferries") == []
    assert points_of(sh, "Cy", "bonus:tunnels") == 15


def test_rule_bonus_tie_allows_only_all_or_none():
    found = errors(one({}, rules={"bonus_tie": "half"}))
    assert [p.path for p in found] == ["rules.bonus_tie"]
    assert "'all', 'none'" in found[0].message


# -- order -------------------------------------------------------------------------------
def test_scoring_order_is_deductions_bonuses_completed_cards_then_routes():
    sh = sheet(one({
        "Ana": {"route_points": 20, "tickets": [ticket(6), ticket(9, False)],
                "tourists": [tourist(5), tourist(4, False)], "perimeter_path": 3, "longest_route": 4},
        "Bo": {"routes": {"3": 1}, "tickets": [ticket(8, False)], "tourists": [tourist(7)], "tunnels": 2},
    }))
    assert [(i.player, i.category, i.points) for i in sh.rounds[0].items] == [
        ("Ana", "ticket", -9), ("Ana", "tourist", -4), ("Bo", "ticket", -8),
        ("Ana", "bonus:longest_route", 5), ("Bo", "bonus:tunnels", 15), ("Ana", "bonus:valid_tickets", 10),
        ("Ana", "bonus:perimeter_path", 25),
        ("Ana", "ticket", 6), ("Ana", "tourist", 5), ("Bo", "tourist", 7),
        ("Ana", "routes", 20), ("Bo", "routes", 4)]


# -- winner ------------------------------------------------------------------------------
def test_highest_total_wins():
    sh = sheet(one({"Ana": {"route_points": 10}, "Bo": {"route_points": 12}}))
    assert sh.winners == ["Bo"] and sh.tiebreak is None and sh.complete


def test_a_tie_is_a_shared_victory_with_no_tie_break():
    sh = sheet(one({
        "Ana": {"route_points": 40, "tickets": [ticket(5), ticket(5), ticket(5)]},
        "Bo": {"route_points": 55, "tickets": [ticket(10, False)], "longest_journey": 2},  # 55 - 10 + 20
        "Cy": {"route_points": 3},
    }))
    assert sh.totals == {"Ana": 65, "Bo": 65, "Cy": 3}
    assert sh.winners == ["Ana", "Bo"]
    assert [(pl.place, pl.players) for pl in sh.ranking] == [(1, ("Ana", "Bo")), (3, ("Cy",))]
    assert sh.tiebreak == "Ana and Bo tied on 65: a shared victory (Ticket to Finland has no tie-break)"


def test_a_tie_below_first_place_has_no_sentence():
    sh = sheet(one({"Ana": {"route_points": 9}, "Bo": {"route_points": 3}, "Cy": {"route_points": 3}}))
    assert sh.tiebreak is None
    assert [(pl.place, pl.players) for pl in sh.ranking] == [(1, ("Ana",)), (2, ("Bo", "Cy"))]


# -- one round, first player -------------------------------------------------------------
def test_one_round_and_a_second_round_is_an_error():
    assert sheet(one({})).complete
    found = errors(session(TTF, ["Ana", "Bo"], {"Ana": {}, "Bo": {}}, {"Ana": {}}))
    assert [p.path for p in found] == ["rounds[2]"]


def test_next_names_round_one_and_the_first_listed_player_until_every_player_is_in():
    sh = sheet(session(TTF, ["Aino", "Eero", "Liisa"], {"Eero": {"route_points": 3}}))
    assert sh.next == "score round 1 (first player: Aino)" and not sh.complete
    assert sh.rounds[0].first_player == "Aino"


def test_warns_when_no_player_is_down_to_two_trains():
    found = but_kept(warnings(one({"Ana": {"routes": {"4": 5}}, "Bo": {"routes": {"2": 3}}, "Cy": {"routes": {}}})))
    assert len(found) == 1 and "2 or fewer trains left" in found[0]


# -- steps -------------------------------------------------------------------------------
def test_walkthrough_steps_follow_the_rulebook_and_enter_each_field_once():
    game = GAMES[TTF]
    steps = game.steps(one({}))
    assert [s.title for s in steps] == ["A. Deductions", "B. Bonuses", "C. Completed cards", "Routes", "Summary"]
    entered = [i for s in steps for i in s.inputs]
    assert len(entered) == len(set(entered))
    assert {k for k, _ in entered} == set(game.fields_for({}))
    assert steps[1].categories == tuple(f"bonus:{m}" for m in BONUS_POINTS)


def test_step_a_shows_deductions_and_step_c_the_completed_cards():
    sh = sheet(one({"Ana": {"tickets": [ticket(6), ticket(9, False)], "tourists": [tourist(5), tourist(4, False)]}}))
    steps = {s.id: s for s in GAMES[TTF].steps(one({}))}
    shown_a = [i.points for i in sh.rounds[0].items if steps["deductions"].shows(i)]
    shown_c = [i.points for i in sh.rounds[0].items if steps["completed"].shows(i)]
    assert shown_a == [-9, -4] and shown_c == [6, 5]


# -- broken files ------------------------------------------------------------------------
BROKEN = [
    ({"tourists": [tourist(5), tourist(2)]}, 'rounds[1].players."Bo".tourists[2].points', "from 3 to 8"),
    ({"tourists": [tourist(9)]}, 'rounds[1].players."Bo".tourists[1].points', "from 3 to 8"),
    ({"tourists": [{"completed": True, "name": "Helsinki"}]}, 'rounds[1].players."Bo".tourists[1]', "no points"),
    ({"tourists": [{"points": 5, "visited": True}]}, 'rounds[1].players."Bo".tourists[1].visited', "unknown key"),
    ({"tourists": [{"points": 5.5}]}, 'rounds[1].players."Bo".tourists[1].points', "decimal"),
    ({"tickets": [ticket(4), ticket(0)]}, 'rounds[1].players."Bo".tickets[2].points', "out of range"),
    ({"tickets": [{"points": 4, "where": "Oulu"}]}, 'rounds[1].players."Bo".tickets[1].where', "unknown key"),
    ({"routes": {"10": 1}}, 'rounds[1].players."Bo".routes."10"', "not a route length"),
    ({"routes": {"0": 1}}, 'rounds[1].players."Bo".routes."0"', "not a route length"),
    ({"route_points": -2}, 'rounds[1].players."Bo".route_points', "out of range"),
    *[({m: -1}, f'rounds[1].players."Bo".{m}', "out of range") for m in MEASURES],
    *[({m: 1.5}, f'rounds[1].players."Bo".{m}', "decimal") for m in MEASURES],
    *[({m: True}, f'rounds[1].players."Bo".{m}', "true/false") for m in MEASURES],
    ({"valid_tickets": 3}, 'rounds[1].players."Bo".valid_tickets', "unknown key"),
    ({"tunnel": 3}, 'rounds[1].players."Bo".tunnel', "did you mean 'tunnels'"),
    ({"longest_path": 3}, 'rounds[1].players."Bo".longest_path', "unknown key"),
]


@pytest.mark.parametrize(("entry", "path", "words"), BROKEN, ids=[b[1].split(".", 2)[-1] + "=" + repr(
    next(iter(b[0].values())))[:12] for b in BROKEN])
def test_broken_field_is_a_located_error(entry, path, words):
    sess, found = files.parse(store.dumps(one({"Ana": {"route_points": 5}, "Bo": entry})))
    assert sess is None
    errs = [p for p in found if p.is_error]
    assert [p.path for p in errs] == [path]
    assert words in errs[0].message
    assert errs[0].line is not None


def test_a_session_with_errors_is_not_scored():
    with pytest.raises(SessionError):
        games.score(one({"Bo": {"routes": {"6": 8}}}))


# -- properties --------------------------------------------------------------------------
PRINTED = st.sampled_from(["Pori", "Oulu", "kemi", "Alta", "Seinajoki"]).flatmap(
    lambda name: st.fixed_dictionaries({"name": st.just(name)}, optional={
        "points": st.just(tourist_value(name)), "completed": st.booleans()}))
"""A tourist card printed in the rulebook: its printed value, or none (issue 12: the card has its value)."""
TOURISTS = st.lists(st.one_of(PRINTED, st.fixed_dictionaries({"points": st.integers(3, 8)}, optional={
    "completed": st.booleans(), "name": st.sampled_from(["Helsinki", "Turku"])})), max_size=4)
ENTRY = st.fixed_dictionaries({}, optional={
    "route_points": st.integers(0, 100), "routes": ROUTES, "tickets": TICKETS, "tourists": TOURISTS,
    **{m: st.integers(0, 4) for m in MEASURES}})
RULES = st.fixed_dictionaries({}, optional={"bonus_tie": st.sampled_from(["all", "none"])})


@st.composite
def sessions(draw):
    """A valid one-round session; some players may be missing from the round."""
    players = draw(NAMES)
    scored = draw(st.lists(st.sampled_from(players), unique=True)) if draw(st.booleans()) else players
    return Session(game=TTF, players=tuple(players), rules=draw(RULES),
                   rounds=(Round(players={p: draw(ENTRY) for p in scored}),) if draw(st.integers(0, 9)) else ())


@settings(max_examples=150, deadline=None)
@given(sessions())
def test_property_items_sum_to_round_points_and_rounds_to_totals(sess):
    sh = games.score(sess)
    for r in sh.rounds:
        for p in sess.players:
            assert sum((i.points for i in r.items if i.player == p), Fraction(0)) == r.points[p]
        assert all(i.points != 0 or "no bonus" in i.why for i in r.items)  # 0 only where a bonus went elsewhere
    for p in sess.players:
        assert sh.totals[p] == sum((r.points[p] for r in sh.rounds), Fraction(0))


@settings(max_examples=150, deadline=None)
@given(sessions(), st.randoms(use_true_random=False))
def test_property_reordering_players_changes_nothing_but_order(sess, random):
    order = list(range(len(sess.players)))
    random.shuffle(order)
    a, b = games.score(sess), games.score(reordered(sess, order))
    assert a.totals == b.totals
    place = {p: pl.place for pl in a.ranking for p in pl.players}
    assert place == {p: pl.place for pl in b.ranking for p in pl.players}
    assert set(a.winners) == set(b.winners)
    assert (sorted((i.player, i.category, i.points) for r in a.rounds for i in r.items)
            == sorted((i.player, i.category, i.points) for r in b.rounds for i in r.items))


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_property_a_session_survives_the_toml_round_trip(sess):
    back, found = files.parse(store.dumps(sess))
    assert back is not None, [p.describe() for p in found]
    assert games.score(back).totals == games.score(sess).totals


# -- the sample --------------------------------------------------------------------------
def sample_3p() -> Session:
    """Three players; the Longest route and Most valid tickets bonus cards are tied."""
    return Session(
        game=TTF, title="Midsummer at the mökki", started=datetime(2026, 6, 20, 18, 0),
        players=("Aino", "Eero", "Liisa"),
        rounds=(Round(players={
            "Aino": {
                "routes": {"1": 2, "2": 6, "3": 4, "4": 3, "6": 1},
                "tickets": [ticket(13, True, "Helsinki – Kirkenes"), ticket(3, True, "Tampere – Tallinn"),
                            ticket(7, True, "Stockholm – Imatra"), ticket(9, False, "Oslo – Vaasa")],
                "tourists": [tourist(6, True, "Pori"), tourist(3, True, "Kokkola"), tourist(8, False, "Alta")],
                "longest_route": 6, "tunnels": 2, "ferries": 1, "longest_journey": 14, "cities_visited": 17,
                "foreign_countries": 2, "perimeter_path": 9,
            },
            "Eero": {
                "routes": {"1": 4, "2": 5, "3": 3, "4": 2, "5": 1},
                "tickets": [ticket(5, True, "Helsinki – Lieksa"), ticket(6, True, "Sundsvall – Lahti"),
                            ticket(6, True, "Tornio – Imatra"), ticket(13, False, "Narvik – Tallinn")],
                "tourists": [tourist(6, True, "Oulu"), tourist(5, True, "Kemi"), tourist(4, True, "Vaasa"),
                             tourist(7, False, "Tromso")],
                "longest_route": 5, "tunnels": 3, "ferries": 1, "longest_journey": 11, "cities_visited": 19,
                "foreign_countries": 1, "perimeter_path": 8,
            },
            "Liisa": {
                "routes": {"2": 3, "3": 5, "4": 2, "6": 1},
                "tickets": [ticket(12, True, "Göteborg – Oulu"), ticket(10, True, "Helsinki – Kiruna"),
                            ticket(10, False, "Turku – Trondheim")],
                "tourists": [tourist(8, True, "Boden"), tourist(3, False, "Kilpisjarvi"),
                             tourist(5, True, "Seinajoki")],
                "longest_route": 6, "tunnels": 0, "ferries": 3, "longest_journey": 16, "cities_visited": 15,
                "foreign_countries": 3, "perimeter_path": 7,
            },
        }),),
    )


SAMPLE = "ticket-to-finland-3p.toml"
# ticket-to-finland-3p.toml, worked by hand:
#   A. deductions      Aino: Oslo – Vaasa -9, Alta -8 = -17   Eero: Narvik – Tallinn -13, Tromso -7 = -20
#                      Liisa: Turku – Trondheim -10, Kilpisjarvi -3 = -13
#   B. bonuses         longest route: Aino 6, Eero 5, Liisa 6 -> tied: Aino +5, Liisa +5
#                      most tunnels: Eero 3 (next 2) +15     most ferries: Liisa 3 (next 1) +15
#                      longest journey: Liisa 16 (next 14) +20      most cities visited: Eero 19 (next 17) +10
#                      most valid tickets: Aino 3, Eero 3, Liisa 2 -> tied: Aino +10, Eero +10
#                      most foreign countries: Liisa 3 (next 2) +25   longest perimeter path: Aino 9 (next 8) +25
#                      -> Aino 5 + 10 + 25 = 40; Eero 15 + 10 + 10 = 35; Liisa 5 + 15 + 20 + 25 = 65
#   C. completed       Aino: tickets 13 + 3 + 7 = 23, tourists 6 + 3 = 9 -> 32
#                      Eero: tickets 5 + 6 + 6 = 17, tourists 6 + 5 + 4 = 15 -> 32
#                      Liisa: tickets 12 + 10 = 22, tourists 8 + 5 = 13 -> 35
#   routes             Aino 2×1 + 6×2 + 4×3 + 3×4 + 1×6 (44 trains) = 2 + 12 + 16 + 21 + 15 = 66
#                      Eero 4×1 + 5×2 + 3×3 + 2×4 + 1×5 (36 trains) = 4 + 10 + 12 + 14 + 10 = 50
#                      Liisa 3×2 + 5×3 + 2×4 + 1×6 (35 trains) = 6 + 20 + 14 + 15 = 55
#   totals             Aino -17 + 40 + 32 + 66 = 121; Eero -20 + 35 + 32 + 50 = 97; Liisa -13 + 65 + 35 + 55 = 142
SAMPLE_TOTALS = {"Aino": 121, "Eero": 97, "Liisa": 142}
SAMPLE_BONUSES = {"Aino": 40, "Eero": 35, "Liisa": 65}


def test_sample_is_the_dump_of_its_session_and_round_trips():
    path = SAMPLES / SAMPLE
    text = path.read_text(encoding="utf-8")
    assert text == store.dumps(sample_3p())
    assert store.dumps(files.load(path)[0]) == text


def test_sample_totals_by_hand():
    sh = games.score(*files.load(SAMPLES / SAMPLE))
    assert sh.totals == SAMPLE_TOTALS
    assert sh.winners == ["Liisa"] and sh.tiebreak is None and sh.complete and sh.warnings == []
    bonuses = {p: sum((i.points for i in items(sh, p) if i.category.startswith("bonus:")), Fraction(0))
               for p in sh.totals}
    assert bonuses == SAMPLE_BONUSES
    assert [(i.player, i.points) for i in items(sh, category="bonus:longest_route")] == [("Aino", 5), ("Liisa", 5)]
    assert [(i.player, i.points) for i in items(sh, category="bonus:valid_tickets")] == [("Aino", 10), ("Eero", 10)]
    assert [pl.players for pl in sh.ranking] == [("Liisa",), ("Aino",), ("Eero",)]


def test_sample_with_bonus_tie_none_drops_both_tied_cards():
    sess, _ = files.load(SAMPLES / SAMPLE)
    sh = games.score(Session(**{**sess.__dict__, "rules": {"bonus_tie": "none"}}))
    # the two tied cards are gone: Aino -5 -10, Eero -10, Liisa -5
    assert sh.totals == {"Aino": 106, "Eero": 87, "Liisa": 137}


# -- tourist cards' printed values (rulebook 002, card reference) ---------------------------
def test_tourist_cards_have_the_values_printed_in_the_card_table():
    """Rulebook 002: "Each tourist card shows a location name and a value from 3 to 8." — the table's twelve."""
    from scorekeeper.games.ticket_to_finland import TOURIST_CARDS, tourist_name, tourist_value

    assert TOURIST_CARDS == {"Kokkola": 3, "Vaasa": 4, "Seinäjoki": 5, "Pori": 6, "Tromsø": 7, "Alta": 8,
                             "Kilpisjärvi": 3, "Kolari": 4, "Kemi": 5, "Oulu": 6, "Malmberget": 7, "Boden": 8}
    assert tourist_value("Pori") == 6
    assert tourist_value("seinajoki") == tourist_value("SEINÄJOKI") == 5
    assert tourist_value("Tromso") == tourist_value("tromsø") == 7
    assert tourist_value("  kilpisjarvi ") == 3
    assert tourist_name("boden") == "Boden"
    assert tourist_value("Helsinki") is None and tourist_name("") is None


def test_a_known_tourist_card_with_another_value_is_an_error_that_says_its_value():
    """Rulebook 002 card table: "| 6 | Pori |" — Pori is a 6 (the contract's example said 5, corrected)."""
    found = errors(one({"Bo": {"tourists": [tourist(6, True, "Kemi"), tourist(5, True, "Pori")]}}))
    assert [(p.path, p.round, p.player, p.field) for p in found] == [
        ('rounds[1].players."Bo".tourists[1].points', 1, "Bo", "tourists"),
        ('rounds[1].players."Bo".tourists[2].points', 1, "Bo", "tourists")]
    assert found[0].message == "Kemi is a 5 on its card (rulebook 002), but points is 6; write points = 5, or leave " \
                               "points out"
    assert found[1].message.startswith("Pori is a 6 on its card")


def test_tourist_names_match_without_case_or_accents_and_unknown_names_keep_their_value():
    """Rulebook 002 prints "Seinajoki", "Tromso", "Kilpisjarvi"; the places are Seinäjoki, Tromsø, Kilpisjärvi."""
    sess = one({"Ana": {"tourists": [tourist(5, True, "SEINÄJOKI"), tourist(7, False, "tromso"),
                                     tourist(3, True, "Kilpisjarvi"), tourist(8, True, "Helsinki")]}})
    assert errors(sess) == []
    assert [i.why for i in items(sheet(sess), "Ana", "tourist")] == [
        "tourist card tromso failed: -7", "tourist card SEINÄJOKI completed: +5",
        "tourist card Kilpisjarvi completed: +3", "tourist card Helsinki completed: +8"]
    assert [p.path for p in errors(one({"Ana": {"tourists": [tourist(4, True, "Tromsø")]}}))] == [
        'rounds[1].players."Ana".tourists[1].points']


def test_a_known_tourist_card_without_points_takes_its_printed_value():
    """Issue 12: "A tourist card named as printed ... takes its card's value"."""
    sh = sheet(one({"Ana": {"tourists": [{"name": "Boden", "completed": True}, {"name": "oulu", "completed": False}]}}))
    assert points_of(sh, "Ana", "tourist") == 8 - 6


def test_fewer_than_three_tickets_or_tourist_cards_kept_is_a_warning():
    """Rulebook 002: "Each player must keep at least 3 route cards and at least 3 tourist cards"."""
    three = [ticket(4), ticket(5), ticket(6)]
    sess = one({"Ana": {"tickets": three, "tourists": [tourist(3), tourist(4), tourist(5)]},
                "Bo": {"tickets": three[:2], "tourists": [tourist(3), tourist(4), tourist(5), tourist(6)]},
                "Cy": {"tickets": three, "tourists": [tourist(8)]}})
    found = [p for p in problems(sess) if " kept " in p.message]
    assert [(p.severity, p.path, p.player) for p in found] == [
        ("warning", 'rounds[1].players."Bo".tickets', "Bo"), ("warning", 'rounds[1].players."Cy".tourists', "Cy")]
    assert found[0].message == ("Bo kept 2 tickets; every player keeps at least 3 (rulebook 002: at least 3 route "
                                "cards and at least 3 tourist cards)")
    assert found[1].message.startswith("Cy kept 1 tourist card; every player keeps at least 3")
    assert errors(sess) == []


@pytest.mark.parametrize(("rules", "used", "error"), [({}, 45, False), ({}, 46, True), ({"trains": 40}, 41, True),
                                                     ({"trains": 40}, 40, False), ({"trains": 50}, 46, False)])
def test_rule_trains_is_the_wagon_limit(rules, used, error):
    """Rulebook 002: "as many sets of wagons (preferably the full 45) as you have players" — rule trains, 45."""
    routes = {"9": used // 9, **({str(used % 9): 1} if used % 9 else {})}
    found = errors(one({"Ana": {"routes": routes}}, rules=rules))
    assert [p.path for p in found] == (['rounds[1].players."Ana".routes'] if error else [])
    if error:
        assert f"each player has {rules.get('trains', 45)} trains" in found[0].message


def test_rule_trains_is_a_whole_number_of_one_or_more():
    assert [p.path for p in errors(one({}, rules={"trains": 0}))] == ["rules.trains"]
    assert GAMES[TTF].rule(one({}), "trains") == 45

