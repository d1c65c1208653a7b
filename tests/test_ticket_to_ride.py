"""Ticket to Ride: one test per rule sentence of SPEC 4.2, broken files, properties, and the samples by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import files, games, store
from scorekeeper.games import GAMES
from scorekeeper.games.trains import ROUTE_POINTS
from scorekeeper.model.session import Round, Session, SessionError
from tests.helpers import errors, points_of, problems, session, sheet, warnings

TTR = "ticket-to-ride"
PUBLISHER = ' (rule tiebreak = "tickets": the publisher\'s full rule, not printed in rulebooks 001/003)'
"""How the tie-break sentence names the default rule (issue 12)."""
SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def one(entries: dict, players=("Ana", "Bo", "Cy"), rules=None) -> Session:
    """A one-round session with these entries; a player not given has an empty (all zero) table."""
    return session(TTR, list(players), {p: entries.get(p, {}) for p in players}, rules=rules)


def ticket(points: int, completed: bool | None = True, name: str | None = None) -> dict:
    """A destination ticket table."""
    card: dict = {"points": points}
    if completed is not None:
        card["completed"] = completed
    if name:
        card["name"] = name
    return card


def items(sh, player=None, category=None):
    """The round's items that score, optionally of one player and one category (a bonus that went elsewhere is
    a 0-point item that says why: see `missed`)."""
    return [i for i in sh.rounds[0].items if i.points
            and (player is None or i.player == player) and (category is None or i.category == category)]


def missed(sh, category):
    """The 0-point items of a category: (player, why)."""
    return [(i.player, i.why) for i in sh.rounds[0].items if not i.points and i.category == category]


def paths(found) -> list[str]:
    """The paths of the errors found."""
    return [p.path for p in found if p.is_error]


def but_kept(found: list) -> list:
    """The problems (or warning texts) found, less the warnings that a player kept too few tickets (tested apart)."""
    return [p for p in found if " kept " not in (p if isinstance(p, str) else p.message)]


# -- routes ------------------------------------------------------------------------------
def test_route_points_score_as_on_the_score_track():
    sh = sheet(one({"Ana": {"route_points": 37}}))
    assert points_of(sh, "Ana", "routes") == 37
    assert items(sh, "Ana", "routes")[0].why == "route points from the score track"


@pytest.mark.parametrize(("length", "points"), [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15), (7, 18),
                                                (8, 21), (9, 27)])
def test_route_table_gives_points_by_length(length, points):
    sh = sheet(one({"Ana": {"routes": {str(length): 1}}}))
    assert points_of(sh, "Ana", "routes") == points
    assert ROUTE_POINTS[length] == points


def test_routes_by_length_add_up_and_explain_themselves():
    sh = sheet(one({"Ana": {"routes": {"1": 2, "4": 3}}}))
    item = items(sh, "Ana", "routes")[0]
    assert item.points == 2 * 1 + 3 * 7
    assert item.why == "routes of 2×1 + 3×4 trains = 2 + 21 by the route table (14 trains used)"


def test_routes_with_a_count_of_zero_are_left_out_of_the_reason():
    sh = sheet(one({"Ana": {"routes": {"2": 0, "3": 1}}}))
    assert items(sh, "Ana", "routes")[0].why == "routes of 1×3 trains = 4 by the route table (3 trains used)"


def test_both_given_and_agreeing_is_fine():
    sess = one({"Ana": {"routes": {"3": 2}, "route_points": 8}})
    assert but_kept(warnings(sess)) == []
    assert points_of(sheet(sess), "Ana", "routes") == 8


def test_both_given_and_disagreeing_warns_and_routes_win():
    sess = one({"Ana": {"routes": {"3": 2}, "route_points": 12}})
    found = but_kept([p for p in problems(sess) if not p.is_error])
    assert len(found) == 1
    assert found[0].path == 'rounds[1].players."Ana".route_points'
    assert "route_points is 12, but the routes by length score 8" in found[0].message
    assert points_of(sheet(sess), "Ana", "routes") == 8


def test_trains_used_above_45_is_an_error():
    sess = one({"Bo": {"routes": {"6": 7, "4": 1}}})  # 42 + 4 = 46 trains
    found = errors(sess)
    assert paths(found) == ['rounds[1].players."Bo".routes']
    assert "46 trains" in found[0].message and "45" in found[0].message
    with pytest.raises(SessionError):
        games.score(sess)


def test_exactly_45_trains_is_allowed():
    sess = one({"Bo": {"routes": {"6": 7, "3": 1}}})  # 42 + 3 = 45 trains
    assert errors(sess) == []


def test_route_points_alone_are_not_checked_against_trains():
    assert errors(one({"Ana": {"route_points": 200}})) == []


# -- destination tickets -----------------------------------------------------------------
def test_completed_ticket_adds_its_points():
    sh = sheet(one({"Ana": {"tickets": [ticket(8, True, "Helena – Los Angeles")]}}))
    item = items(sh, "Ana", "ticket")[0]
    assert item.points == 8
    assert item.why == "ticket Helena – Los Angeles completed: +8"


def test_failed_ticket_subtracts_its_points():
    sh = sheet(one({"Ana": {"tickets": [ticket(11, False)]}}))
    item = items(sh, "Ana", "ticket")[0]
    assert item.points == -11
    assert item.why == "ticket 1 failed: -11"


def test_ticket_without_completed_counts_as_failed_and_says_so():
    sh = sheet(one({"Ana": {"tickets": [ticket(4, True), ticket(9, None, "Chicago – Santa Fe")]}}))
    item = items(sh, "Ana", "ticket")[1]
    assert item.points == -9
    assert item.why == "ticket Chicago – Santa Fe not marked completed, so failed: -9"


def test_each_ticket_is_its_own_item_in_the_players_order():
    sh = sheet(one({"Ana": {"tickets": [ticket(4), ticket(7, False), ticket(12)]}}))
    assert [i.points for i in items(sh, "Ana", "ticket")] == [4, -7, 12]
    assert sh.totals["Ana"] == 9


def test_a_player_with_routes_but_no_tickets_scores_with_a_warning():
    """Rulebook 001: "A player must keep at least two Destination Ticket cards" — fewer is a warning, not an error
    (changed by issue 12: a player without tickets was silently fine)."""
    sess = one({"Ana": {"routes": {"4": 2}}})
    found = problems(sess)
    assert [(p.severity, p.path) for p in found] == [
        ("warning", f'rounds[1].players."{p}".tickets') for p in ("Ana", "Bo", "Cy")]
    assert found[0].message == "Ana kept 0 destination tickets; every player keeps at least 2 (rulebooks 001 and 003)"
    assert sheet(sess).totals["Ana"] == 14


# -- longest continuous path -------------------------------------------------------------
def test_longest_path_gives_ten_to_the_longest():
    sh = sheet(one({"Ana": {"longest_path": 14}, "Bo": {"longest_path": 11}}))
    assert points_of(sh, "Ana", "longest-path") == 10
    assert points_of(sh, "Bo", "longest-path") == 0
    assert items(sh, "Ana", "longest-path")[0].why == "the longest continuous path (14 trains; next best 11): +10"


def test_longest_path_tie_gives_every_tied_player_the_bonus():
    sh = sheet(one({"Ana": {"longest_path": 14}, "Bo": {"longest_path": 14}, "Cy": {"longest_path": 14}}))
    assert [i.player for i in items(sh, category="longest-path")] == ["Ana", "Bo", "Cy"]
    assert all(i.points == 10 for i in items(sh, category="longest-path"))
    assert items(sh, "Bo", "longest-path")[0].why == (
        "tied with Ana and Cy for the longest continuous path (14 trains each): +10")


def test_nobody_receives_the_bonus_when_the_greatest_path_is_zero():
    sh = sheet(one({"Ana": {"route_points": 5}}))
    assert items(sh, category="longest-path") == []


def test_rule_longest_path_bonus_changes_the_points():
    sh = sheet(one({"Ana": {"longest_path": 9}}, rules={"longest_path_bonus": 15}))
    assert points_of(sh, "Ana", "longest-path") == 15


def test_rule_longest_path_bonus_zero_itemises_nothing():
    sh = sheet(one({"Ana": {"longest_path": 9}}, rules={"longest_path_bonus": 0}))
    assert items(sh, category="longest-path") == []


def test_with_no_longest_path_bonus_nobody_holds_it_for_the_tie_break():
    """longest_path_bonus = 0: no bonus is given, so the longer path does not settle a tie (found by
    test_reference, seed 656201)."""
    sh = sheet(one({"Ana": {"route_points": 10, "longest_path": 9}, "Bo": {"route_points": 10, "longest_path": 3}},
                   rules={"longest_path_bonus": 0}))
    assert sh.totals["Ana"] == sh.totals["Bo"] == 10
    assert sh.winners == ["Ana", "Bo"] and sh.ranking[0].players == ("Ana", "Bo")
    assert "neither held the Longest Path bonus" in (sh.tiebreak or "")


@pytest.mark.parametrize("value", [-1, 2.5, True, "ten"])
def test_rule_longest_path_bonus_is_a_whole_number(value):
    found = errors(one({}, rules={"longest_path_bonus": value}))
    assert paths(found) == ["rules.longest_path_bonus"]


def test_rule_map_allows_only_known_maps():
    found = errors(one({}, rules={"map": "asia"}))
    assert paths(found) == ["rules.map"]
    assert "'usa'" in found[0].message


def test_longest_path_longer_than_the_trains_used_is_an_error():
    """Rulebook 001: "a given plastic train may never be used twice" — so a path is at most the trains the player
    used (changed by issue 12 from a warning: a path of 50 with 38 trains took the +10 and changed the winner)."""
    found = errors(one({"Ana": {"routes": {"4": 2}, "longest_path": 9}}))
    assert [p.path for p in found] == ['rounds[1].players."Ana".longest_path']
    assert found[0].message == ("longest_path is 9, but Ana's routes use only 8 trains; a path is made of the "
                                "player's trains, so it is at most the trains used")


def test_a_path_of_50_with_38_trains_does_not_take_the_bonus():
    """Issue 12, tried as a new user would: a path of 50 with 38 trains used took the +10 and changed the winner;
    now it is an error at longest_path and nothing is scored."""
    sess = one({"Ana": {"routes": {"6": 5, "4": 2}, "longest_path": 50},
                "Bo": {"routes": {"6": 7}, "longest_path": 12}})
    found = errors(sess)
    assert [(p.path, p.round, p.player, p.field) for p in found] == [
        ('rounds[1].players."Ana".longest_path', 1, "Ana", "longest_path")]
    with pytest.raises(SessionError):
        games.score(sess)


def test_a_path_above_45_is_an_error_when_the_trains_used_are_unknown():
    """Rulebook 001: "each player takes his set of 45 colored train cars"."""
    found = errors(one({"Ana": {"route_points": 80, "longest_path": 46}}))
    assert [p.path for p in found] == ['rounds[1].players."Ana".longest_path']
    assert found[0].message == "longest_path is 46, but a player has only 45 trains"
    assert errors(one({"Ana": {"route_points": 80, "longest_path": 45}})) == []


# -- tickets kept ------------------------------------------------------------------------
def test_fewer_than_two_tickets_kept_is_a_warning_naming_the_player():
    """Rulebook 001: "A player must keep at least two Destination Ticket cards, but may keep all three";
    rulebook 003 the same (2장 또는 3장 전부 선택합니다)."""
    sess = one({"Ana": {"tickets": [ticket(4), ticket(8, False)]}, "Bo": {"tickets": [ticket(9)]},
                "Cy": {"tickets": [ticket(5), ticket(6), ticket(7)]}})
    found = [p for p in problems(sess) if p.field == "tickets"]
    assert [(p.severity, p.path, p.round, p.player) for p in found] == [
        ("warning", 'rounds[1].players."Bo".tickets', 1, "Bo")]
    assert found[0].message == "Bo kept 1 destination ticket; every player keeps at least 2 (rulebooks 001 and 003)"
    assert sheet(sess).totals["Bo"] == 9


def test_tickets_kept_wait_for_the_player_to_be_entered():
    sess = session(TTR, ["Ana", "Bo"], {"Ana": {"tickets": [ticket(4), ticket(5)]}})
    assert warnings(sess) == []


def test_map_tickets_by_name_count_as_kept():
    sess = on_map({p: {"tickets": [named("Denver – El Paso"), named("Boston – Miami")]}
                   for p in ("Ana", "Bo", "Cy")} | {"Dee": {"tickets": [named("Seattle – New York")]}})
    assert [p.path for p in problems(sess) if " kept " in p.message] == ['rounds[1].players."Dee".tickets']


def test_check_lists_the_trains_error_beside_a_field_error():
    """Issue 12: every error that can be evaluated — a broken ticket no longer hides 46 trains."""
    sess = one({"Ana": {"tickets": [ticket(0)]}, "Bo": {"routes": {"6": 7, "4": 1}}})
    assert [p.path for p in errors(sess)] == ['rounds[1].players."Ana".tickets[1].points',
                                              'rounds[1].players."Bo".routes']


# -- order -------------------------------------------------------------------------------
def test_items_come_in_the_rulebooks_order():
    sh = sheet(one({
        "Ana": {"longest_path": 9, "tickets": [ticket(5)], "route_points": 20},
        "Bo": {"tickets": [ticket(6, False)], "routes": {"2": 3}},
    }))
    assert [(i.player, i.category) for i in sh.rounds[0].items] == [
        ("Ana", "routes"), ("Bo", "routes"), ("Ana", "ticket"), ("Bo", "ticket"), ("Ana", "longest-path")]


# -- winner and tie-breaks ---------------------------------------------------------------
def test_highest_total_wins():
    sh = sheet(one({"Ana": {"route_points": 40}, "Bo": {"route_points": 41}}))
    assert sh.winners == ["Bo"] and sh.tiebreak is None and sh.complete


def test_a_tie_goes_to_the_most_completed_tickets():
    sh = sheet(one({
        "Ana": {"route_points": 40, "tickets": [ticket(5), ticket(5), ticket(4), ticket(4), ticket(4)]},
        "Bo": {"route_points": 22, "tickets": [ticket(10), ticket(10), ticket(10)], "longest_path": 8},
    }))
    assert sh.totals["Ana"] == sh.totals["Bo"] == 62
    assert sh.winners == ["Ana"]
    assert sh.tiebreak == ("Ana and Bo tied on 62; Ana completed more tickets (5 to 3)"
                           + PUBLISHER)
    assert [pl.players for pl in sh.ranking] == [("Ana",), ("Bo",), ("Cy",)]


def test_still_tied_the_longest_path_bonus_holder_wins():
    sh = sheet(one({
        "Ana": {"route_points": 50, "tickets": [ticket(8), ticket(7, False)], "longest_path": 6},
        "Bo": {"route_points": 39, "tickets": [ticket(6), ticket(4, False)], "longest_path": 12},
    }))
    assert sh.totals["Ana"] == sh.totals["Bo"] == 51
    assert sh.winners == ["Bo"]
    assert sh.tiebreak == ("Ana and Bo tied on 51; no one completed more tickets (1 each); "
                           "Bo held the Longest Path bonus"
                           + PUBLISHER)


def test_still_tied_after_both_is_a_shared_victory():
    sh = sheet(one({
        "Ana": {"route_points": 30, "tickets": [ticket(8)], "longest_path": 12},
        "Bo": {"route_points": 30, "tickets": [ticket(8)], "longest_path": 12},
    }))
    assert sh.winners == ["Ana", "Bo"]
    assert sh.ranking[0].players == ("Ana", "Bo") and sh.ranking[1].place == 3
    assert sh.tiebreak == ("Ana and Bo tied on 48; no one completed more tickets (1 each); "
                           "both held the Longest Path bonus; still tied: a shared victory for Ana and Bo"
                           + PUBLISHER)


def test_tied_players_without_the_bonus_share_the_victory():
    sh = sheet(one({
        "Ana": {"route_points": 30}, "Bo": {"route_points": 30}, "Cy": {"route_points": 10, "longest_path": 5},
    }))
    assert sh.winners == ["Ana", "Bo"]
    assert sh.tiebreak == ("Ana and Bo tied on 30; no one completed more tickets (0 each); "
                           "neither held the Longest Path bonus; still tied: a shared victory for Ana and Bo"
                           + PUBLISHER)


def test_tie_breaks_rank_every_place_not_only_the_first():
    sh = sheet(one({
        "Ana": {"route_points": 90},
        "Bo": {"route_points": 20, "tickets": [ticket(5)]},
        "Cy": {"route_points": 15, "tickets": [ticket(5), ticket(5)]},
    }))
    assert [(pl.place, pl.players) for pl in sh.ranking] == [(1, ("Ana",)), (2, ("Cy",)), (3, ("Bo",))]


def test_rule_tiebreak_shared_shares_a_tie_and_says_so():
    """Rulebook 003: "가장 많은 점수를 얻은 플레이어가 최종 승리합니다" (the player with the most points wins)
    is all the project's rulebooks say (001 gives no winner rule); tiebreak = "shared" shares a tie on total."""
    entries = {
        "Ana": {"route_points": 40, "tickets": [ticket(5), ticket(5), ticket(4), ticket(4), ticket(4)]},
        "Bo": {"route_points": 22, "tickets": [ticket(10), ticket(10), ticket(10)], "longest_path": 8},
    }
    sh = sheet(one(entries, rules={"tiebreak": "shared"}))
    assert sh.winners == ["Ana", "Bo"]
    assert [(pl.place, pl.players) for pl in sh.ranking] == [(1, ("Ana", "Bo")), (3, ("Cy",))]
    assert sh.tiebreak == ('Ana and Bo tied on 62: a shared victory (rule tiebreak = "shared": rulebooks 001 and '
                           "003 say only that the most points win)")
    default = sheet(one(entries))
    assert default.winners == ["Ana"] and default.tiebreak.endswith(PUBLISHER)


def test_rule_tiebreak_allows_tickets_or_shared():
    found = errors(one({}, rules={"tiebreak": "longest"}))
    assert [p.path for p in found] == ["rules.tiebreak"]
    assert "'tickets', 'shared'" in found[0].message


def test_games_and_the_rule_help_say_where_each_tie_break_comes_from(capsys):
    """Issue 12: the chain in use is the publisher's full rule, not printed in rulebooks 001/003 — said where users
    read the rules (`scorekeeper games`, the app's help, which shows the rule's help)."""
    from scorekeeper.cli import main

    rule = next(r for r in GAMES[TTR].rules if r.key == "tiebreak")
    assert rule.default == "tickets" and rule.choices == ("tickets", "shared")
    assert "the publisher's full rule, not printed in rulebooks 001/003" in rule.help
    assert "rulebooks 001 and 003 say only that the most points win" in rule.help
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert 'tiebreak = "tickets" (one of tickets, shared): a tie for the most points: tickets — most completed ' \
           "tickets, then the Longest Path bonus, then shared (the publisher's full rule" in out


# -- one round ---------------------------------------------------------------------------
def test_the_game_is_one_round():
    assert GAMES[TTR].scheduled_rounds(one({})) == 1
    assert sheet(one({})).complete


def test_a_second_round_is_an_error():
    sess = session(TTR, ["Ana", "Bo"], {"Ana": {}, "Bo": {}}, {"Ana": {}, "Bo": {}})
    found = errors(sess)
    assert paths(found) == ["rounds[2]"]
    assert "has 1" in found[0].message


def test_next_names_round_one_and_the_first_player_until_every_player_is_in():
    sess = session(TTR, ["Ana", "Bo", "Cy"], {"Ana": {"route_points": 9}, "Bo": {}})
    sh = sheet(sess)
    assert not sh.complete and sh.next == "score round 1 (first player: Ana)"
    assert sh.rounds[0].first_player == "Ana"
    empty = sheet(session(TTR, ["Ana", "Bo"]))
    assert empty.next == "score round 1 (first player: Ana)" and not empty.complete


# -- end of game -------------------------------------------------------------------------
def test_warns_when_no_player_is_down_to_two_trains():
    sess = one({"Ana": {"routes": {"6": 5}}, "Bo": {"routes": {"5": 8}}, "Cy": {"routes": {"1": 4}}})
    found = but_kept(warnings(sess))
    assert len(found) == 1
    assert found[0].startswith("round 1: no player has 2 or fewer trains left (trains used: Ana 30, Bo 40, Cy 4)")


def test_no_end_warning_when_someone_used_43_trains():
    sess = one({"Ana": {"routes": {"6": 7, "1": 1}}, "Bo": {"routes": {"5": 8}}, "Cy": {"routes": {"1": 4}}})
    assert but_kept(warnings(sess)) == []


def test_no_end_warning_unless_every_player_gave_routes():
    assert but_kept(warnings(one({"Ana": {"routes": {"1": 1}}, "Bo": {"routes": {"1": 1}},
                                  "Cy": {"route_points": 3}}))) == []
    partial = session(TTR, ["Ana", "Bo"], {"Ana": {"routes": {"1": 1}}})
    assert but_kept(warnings(partial)) == []


# -- fields and steps --------------------------------------------------------------------
def test_walkthrough_steps_follow_the_rulebook():
    steps = GAMES[TTR].steps(one({}))
    assert [s.title for s in steps] == ["Routes", "Destination tickets", "Longest path", "Summary"]
    assert steps[0].inputs == (("routes", None), ("route_points", None))
    assert steps[1].inputs == (("tickets", None),) and steps[1].categories == ("ticket",)
    assert steps[2].inputs == (("longest_path", None),) and steps[2].categories == ("longest-path",)
    every = {i for s in steps for i in s.inputs}
    assert every == {("routes", None), ("route_points", None), ("tickets", None), ("longest_path", None)}


def test_claimed_needs_the_map_rule():
    found = errors(one({"Bo": {"claimed": ["Denver – Omaha"]}}))
    assert paths(found) == ['rounds[1].players."Bo".claimed']
    assert 'map = "usa"' in found[0].message


def test_game_is_registered_in_order():
    ids = list(GAMES)
    assert ids.index("ticket-booth") < ids.index(TTR) < ids.index("ticket-to-finland")


BROKEN = [
    ({"route_points": 2.5}, 'rounds[1].players."Bo".route_points', "decimal"),
    ({"route_points": True}, 'rounds[1].players."Bo".route_points', "true/false"),
    ({"route_points": -1}, 'rounds[1].players."Bo".route_points', "out of range"),
    ({"longest_path": -3}, 'rounds[1].players."Bo".longest_path', "out of range"),
    ({"longest_path": 4.0}, 'rounds[1].players."Bo".longest_path', "decimal"),
    ({"longest_path": False}, 'rounds[1].players."Bo".longest_path', "true/false"),
    ({"routes": {"0": 1}}, 'rounds[1].players."Bo".routes."0"', "not a route length"),
    ({"routes": {"10": 1}}, 'rounds[1].players."Bo".routes."10"', "not a route length"),
    ({"routes": {"3": -1}}, 'rounds[1].players."Bo".routes."3"', "out of range"),
    ({"routes": {"3": 1.5}}, 'rounds[1].players."Bo".routes."3"', "decimal"),
    ({"routes": {"3": True}}, 'rounds[1].players."Bo".routes."3"', "true/false"),
    ({"routes": 12}, 'rounds[1].players."Bo".routes', "a table"),
    ({"tickets": [ticket(4), ticket(0)]}, 'rounds[1].players."Bo".tickets[2].points', "out of range"),
    ({"tickets": [ticket(4), ticket(-6)]}, 'rounds[1].players."Bo".tickets[2].points', "out of range"),
    ({"tickets": [ticket(4), {"points": 6.5}]}, 'rounds[1].players."Bo".tickets[2].points', "decimal"),
    ({"tickets": [{"completed": True}]}, 'rounds[1].players."Bo".tickets[1]', "no points"),
    ({"tickets": [{"points": 6, "completed": "yes"}]}, 'rounds[1].players."Bo".tickets[1].completed', "true or false"),
    ({"tickets": [{"points": 6, "name": 7}]}, 'rounds[1].players."Bo".tickets[1].name', "text"),
    ({"tickets": [{"points": 6, "complete": True}]}, 'rounds[1].players."Bo".tickets[1].complete',
     "did you mean 'completed'"),
    ({"tickets": {"points": 6}}, 'rounds[1].players."Bo".tickets', "a list"),
    ({"tickets": [6]}, 'rounds[1].players."Bo".tickets[1]', "a whole number"),
    ({"claimed": ["Denver – Omaha"]}, 'rounds[1].players."Bo".claimed', "map"),
    ({"longest_paths": 3}, 'rounds[1].players."Bo".longest_paths', "did you mean 'longest_path'"),
    ({"tourists": []}, 'rounds[1].players."Bo".tourists', "unknown key"),
]


@pytest.mark.parametrize(("entry", "path", "words"), BROKEN, ids=[b[1].split(".", 2)[-1] for b in BROKEN])
def test_broken_field_is_a_located_error(entry, path, words):
    text = store.dumps(one({"Ana": {"route_points": 5}, "Bo": entry}))
    sess, found = files.parse(text)
    assert sess is None
    errs = [p for p in found if p.is_error]
    assert [p.path for p in errs] == [path]
    assert words in errs[0].message
    assert errs[0].line is not None


def test_broken_file_carries_the_toml_line():
    text = (
        'format = 1\ngame = "ticket-to-ride"\nplayers = ["Ana", "Bo"]\n\n[[rounds]]\n'
        '[rounds.players.Ana]\nroute_points = 12\n\n[rounds.players.Bo]\n'
        'tickets = [\n  { points = 8, completed = true },\n  { points = 0, completed = false },\n]\n'
    )
    _, found = files.parse(text)
    assert [(p.path, p.line) for p in found] == [('rounds[1].players."Bo".tickets[2].points', 10)]


# -- properties --------------------------------------------------------------------------
NAMES = st.lists(st.sampled_from(["Ana", "Bo", "Cy", "Dee", "Eli", "Fay"]), min_size=2, max_size=5, unique=True)
TICKETS = st.lists(st.fixed_dictionaries({"points": st.integers(1, 22)},
                                         optional={"completed": st.booleans(), "name": st.sampled_from(
                                             ["Denver – El Paso", "Seattle – New York", "Boston – Miami"])}),
                   max_size=4)
ROUTES = st.dictionaries(st.sampled_from([str(n) for n in range(1, 7)]), st.integers(0, 2), max_size=6)


def path_within_trains(entry: dict) -> dict:
    """The entry with its longest path cut to the trains its routes use (a longer path is an error, issue 12)."""
    if "routes" in entry and "longest_path" in entry:
        used = sum(int(k) * v for k, v in entry["routes"].items())
        entry = {**entry, "longest_path": min(entry["longest_path"], used)}
    return entry


ENTRY = st.fixed_dictionaries({}, optional={
    "route_points": st.integers(0, 120), "routes": ROUTES, "tickets": TICKETS, "longest_path": st.integers(0, 20)}
).map(path_within_trains)


@st.composite
def sessions(draw, game=TTR, entry=ENTRY, rules=None):
    """A valid one-round session; some players may be missing from the round."""
    players = draw(NAMES)
    scored = draw(st.lists(st.sampled_from(players), unique=True)) if draw(st.booleans()) else players
    rnd = {p: draw(entry) for p in scored}
    return Session(game=game, players=tuple(players), rules=draw(rules) if rules is not None else {},
                   rounds=(Round(players=rnd),) if draw(st.integers(0, 9)) else ())


RULES = st.fixed_dictionaries({}, optional={"longest_path_bonus": st.integers(0, 20)})


def reordered(sess: Session, order: list[int]) -> Session:
    """The same session with the players (and each round's tables) in another order."""
    players = tuple(sess.players[i] for i in order)
    rounds = tuple(Round(players={p: r.players[p] for p in players if p in r.players}) for r in sess.rounds)
    return Session(game=sess.game, players=players, rules=sess.rules, rounds=rounds)


@settings(max_examples=150, deadline=None)
@given(sessions(rules=RULES))
def test_property_items_sum_to_round_points_and_rounds_to_totals(sess):
    sh = games.score(sess)
    for r in sh.rounds:
        for p in sess.players:
            assert sum((i.points for i in r.items if i.player == p), Fraction(0)) == r.points[p]
            assert all(i.points != 0 or "no bonus" in i.why for i in r.items)  # 0 only where a bonus went elsewhere
    for p in sess.players:
        assert sh.totals[p] == sum((r.points[p] for r in sh.rounds), Fraction(0))


@settings(max_examples=150, deadline=None)
@given(sessions(rules=RULES), st.randoms(use_true_random=False))
def test_property_reordering_players_changes_nothing_but_order(sess, random):
    order = list(range(len(sess.players)))
    random.shuffle(order)
    a, b = games.score(sess), games.score(reordered(sess, order))
    assert a.totals == b.totals
    place = {p: pl.place for pl in a.ranking for p in pl.players}
    assert place == {p: pl.place for pl in b.ranking for p in pl.players}
    assert set(a.winners) == set(b.winners)
    def lines(sh):
        return sorted((i.player, i.category, i.points) for r in sh.rounds for i in r.items)

    assert lines(a) == lines(b)


@settings(max_examples=100, deadline=None)
@given(sessions(rules=RULES))
def test_property_a_session_survives_the_toml_round_trip(sess):
    back, found = files.parse(store.dumps(sess))
    assert back is not None, [p.describe() for p in found]
    assert games.score(back).totals == games.score(sess).totals


# -- samples -----------------------------------------------------------------------------
def sample_4p() -> Session:
    """A 4-player evening, route points from routes by length except Lena's score track."""
    return Session(
        game=TTR, title="Game night at the Okafors'", started=datetime(2026, 2, 7, 20, 0),
        players=("Mia", "Theo", "Lena", "Sam"),
        rounds=(Round(players={
            "Mia": {"routes": {"1": 1, "2": 3, "3": 2, "4": 3, "5": 1, "6": 1}, "longest_path": 19, "tickets": [
                ticket(22, True, "Seattle – New York"), ticket(8, True, "Helena – Los Angeles"),
                ticket(12, False, "Boston – Miami")]},
            "Theo": {"routes": {"1": 2, "2": 4, "3": 3, "4": 2, "5": 2, "6": 1}, "longest_path": 24, "tickets": [
                ticket(20, True, "Los Angeles – Miami"), ticket(11, True, "Dallas – New York"),
                ticket(5, True, "Kansas City – Houston")]},
            "Lena": {"route_points": 52, "longest_path": 17, "tickets": [
                ticket(17, True, "Portland – Nashville"), ticket(11, False, "Winnipeg – Little Rock"),
                ticket(4, True, "Denver – El Paso")]},
            "Sam": {"routes": {"1": 3, "2": 5, "3": 4, "4": 1}, "longest_path": 12, "tickets": [
                ticket(10, True, "Toronto – Miami"), ticket(8, True, "Sault St. Marie – Nashville"),
                ticket(9, True, "Montréal – Atlanta"), ticket(6, True, "New York – Atlanta")]},
        }),),
    )


def sample_tie_tickets() -> Session:
    """Hana and Jun tie; Jun completed more tickets."""
    return Session(
        game=TTR, title="Rainy Sunday", started=datetime(2026, 3, 15, 15, 30), players=("Hana", "Jun", "Kai"),
        rounds=(Round(players={
            "Hana": {"routes": {"2": 2, "3": 3, "4": 2, "5": 1, "6": 2}, "longest_path": 21, "tickets": [
                ticket(20, False, "Vancouver – Montréal"), ticket(7, True, "Calgary – Salt Lake City"),
                ticket(9, True, "Seattle – Los Angeles")]},
            "Jun": {"routes": {"1": 3, "2": 5, "3": 3, "4": 4, "5": 1}, "longest_path": 15, "tickets": [
                ticket(7, True, "Chicago – New Orleans"), ticket(8, True, "Duluth – Houston"),
                ticket(9, True, "Sault St. Marie – Oklahoma City"), ticket(11, False, "Denver – Pittsburgh")]},
            "Kai": {"routes": {"1": 1, "2": 3, "3": 2, "4": 1, "6": 1}, "longest_path": 11, "tickets": [
                ticket(5, True, "Kansas City – Houston"), ticket(4, True, "Denver – El Paso")]},
        }),),
    )


def sample_tie_longest_path() -> Session:
    """Rosa and Felix tie with two completed tickets each; Rosa holds the Longest Path bonus."""
    return Session(
        game=TTR, title="Two-player rematch", started=datetime(2026, 4, 2, 21, 0), players=("Rosa", "Felix"),
        rounds=(Round(players={
            "Rosa": {"routes": {"1": 2, "2": 4, "3": 3, "4": 2, "5": 1, "6": 2}, "longest_path": 28, "tickets": [
                ticket(21, True, "Los Angeles – New York"), ticket(9, True, "Seattle – Los Angeles"),
                ticket(13, False, "Montréal – New Orleans")]},
            "Felix": {"routes": {"2": 2, "3": 3, "4": 3, "5": 1, "6": 2}, "longest_path": 19, "tickets": [
                ticket(17, True, "San Francisco – Atlanta"), ticket(13, True, "Vancouver – Santa Fe"),
                ticket(4, False, "Denver – El Paso")]},
        }),),
    )


def sample_tie_shared() -> Session:
    """The same game as the tie on tickets, played with the rulebooks' own rule: tiebreak = "shared"."""
    return replace(sample_tie_tickets(), title="Rainy Sunday, by the rulebook", rules={"tiebreak": "shared"})


BUILT = {
    "ticket-to-ride-4p.toml": sample_4p,
    "ticket-to-ride-tie-tickets.toml": sample_tie_tickets,
    "ticket-to-ride-tie-shared.toml": sample_tie_shared,
    "ticket-to-ride-tie-longest-path.toml": sample_tie_longest_path,
}

SAMPLE_CASES = [
    # ticket-to-ride-4p.toml
    #   Mia:  routes 1×1 + 3×2 + 2×3 + 3×4 + 1×5 + 1×6 trains (36 trains) = 1 + 6 + 8 + 21 + 10 + 15 = 61;
    #         tickets +22 +8 -12 = 18; longest path 19 < Theo's 24, no bonus            -> 61 + 18 = 79
    #   Theo: routes 2×1 + 4×2 + 3×3 + 2×4 + 2×5 + 1×6 (43 trains) = 2 + 8 + 12 + 14 + 20 + 15 = 71;
    #         tickets +20 +11 +5 = 36; longest path 24, the longest: +10               -> 71 + 36 + 10 = 117
    #   Lena: route points 52 (score track); tickets +17 -11 +4 = 10                    -> 62
    #   Sam:  routes 3×1 + 5×2 + 4×3 + 1×4 (29 trains) = 3 + 10 + 16 + 7 = 36; tickets +10 +8 +9 +6 = 33  -> 69
    ("ticket-to-ride-4p.toml", {"Mia": 79, "Theo": 117, "Lena": 62, "Sam": 69}, ["Theo"], None),
    # ticket-to-ride-tie-tickets.toml
    #   Hana: routes 2×2 + 3×3 + 2×4 + 1×5 + 2×6 (38 trains) = 4 + 12 + 14 + 10 + 30 = 70;
    #         tickets -20 +7 +9 = -4 (2 completed); longest path 21: +10               -> 70 - 4 + 10 = 76
    #   Jun:  routes 3×1 + 5×2 + 3×3 + 4×4 + 1×5 (43 trains) = 3 + 10 + 12 + 28 + 10 = 63;
    #         tickets +7 +8 +9 -11 = 13 (3 completed)                                     -> 63 + 13 = 76
    #   Kai:  routes 1×1 + 3×2 + 2×3 + 1×4 + 1×6 (23 trains) = 1 + 6 + 8 + 7 + 15 = 37; tickets +5 +4  -> 46
    #   Hana and Jun tie on 76; Jun completed 3 tickets to Hana's 2 -> Jun wins
    ("ticket-to-ride-tie-tickets.toml", {"Hana": 76, "Jun": 76, "Kai": 46}, ["Jun"],
     "Hana and Jun tied on 76; Jun completed more tickets (3 to 2)" + PUBLISHER),
    # ticket-to-ride-tie-shared.toml: the same points; rule tiebreak = "shared" -> Hana and Jun share the victory
    ("ticket-to-ride-tie-shared.toml", {"Hana": 76, "Jun": 76, "Kai": 46}, ["Hana", "Jun"],
     'Hana and Jun tied on 76: a shared victory (rule tiebreak = "shared": rulebooks 001 and 003 say only that the '
     "most points win)"),
    # ticket-to-ride-tie-longest-path.toml
    #   Rosa:  routes 2×1 + 4×2 + 3×3 + 2×4 + 1×5 + 2×6 (44 trains) = 2 + 8 + 12 + 14 + 10 + 30 = 76;
    #          tickets +21 +9 -13 = 17 (2 completed); longest path 28: +10            -> 76 + 17 + 10 = 103
    #   Felix: routes 2×2 + 3×3 + 3×4 + 1×5 + 2×6 (42 trains) = 4 + 12 + 21 + 10 + 30 = 77;
    #          tickets +17 +13 -4 = 26 (2 completed); longest path 19                 -> 77 + 26 = 103
    #   tie on 103, 2 completed tickets each; Rosa holds the Longest Path bonus -> Rosa wins
    ("ticket-to-ride-tie-longest-path.toml", {"Rosa": 103, "Felix": 103}, ["Rosa"],
     "Rosa and Felix tied on 103; no one completed more tickets (2 each); Rosa held the Longest Path bonus"
     + PUBLISHER),
]


@pytest.mark.parametrize("name", sorted(BUILT))
def test_sample_is_the_dump_of_its_session_and_round_trips(name):
    path = SAMPLES / name
    text = path.read_text(encoding="utf-8")
    assert text == store.dumps(BUILT[name]())
    assert store.dumps(files.load(path)[0]) == text


@pytest.mark.parametrize(("name", "totals", "winners", "tiebreak"), SAMPLE_CASES, ids=[c[0] for c in SAMPLE_CASES])
def test_sample_totals_by_hand(name, totals, winners, tiebreak):
    sess, found = files.load(SAMPLES / name)
    sh = games.score(sess, found)
    assert sh.totals == totals
    assert sh.winners == winners
    assert sh.tiebreak == tiebreak
    assert sh.complete and sh.next is None
    assert sh.warnings == []


def test_sample_4p_items_by_hand():
    sh = games.score(*files.load(SAMPLES / "ticket-to-ride-4p.toml"))
    assert points_of(sh, "Mia", "routes") == 61 and points_of(sh, "Theo", "routes") == 71
    assert points_of(sh, "Lena", "routes") == 52 and points_of(sh, "Sam", "routes") == 36
    assert [i.points for i in items(sh, "Mia", "ticket")] == [22, 8, -12]
    assert [(i.player, i.points) for i in items(sh, category="longest-path")] == [("Theo", 10)]
    assert [pl.players for pl in sh.ranking] == [("Theo",), ("Mia",), ("Sam",), ("Lena",)]


def test_score_json_on_a_sample_through_the_command_line():
    path = SAMPLES / "ticket-to-ride-tie-tickets.toml"
    result = subprocess.run([sys.executable, "-m", "scorekeeper", "score", "--json", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == TTR
    assert data["totals"] == {"Hana": 76, "Jun": 76, "Kai": 46}
    assert data["winners"] == ["Jun"]
    assert data["tiebreak"] == "Hana and Jun tied on 76; Jun completed more tickets (3 to 2)" + PUBLISHER
    assert data["ranking"] == [{"place": 1, "players": ["Jun"], "total": 76, "why": data["tiebreak"]},
                               {"place": 2, "players": ["Hana"], "total": 76,
                                "why": "Hana and Jun tied on 76; Jun completed more tickets (3 to 2)"},
                               {"place": 3, "players": ["Kai"], "total": 46, "why": None}]
    rnd = data["rounds"][0]
    assert rnd["first_player"] == "Hana" and rnd["complete"] is True
    for player, points in rnd["points"].items():
        assert sum(i["points"] for i in rnd["items"] if i["player"] == player) == points
    assert [i["category"] for i in rnd["items"] if i["player"] == "Hana"] == [
        "routes", "ticket", "ticket", "ticket", "longest-path"]


# -- map mode (USA) ----------------------------------------------------------------------
USA = {"map": "usa"}


def on_map(entries: dict, players=("Ana", "Bo", "Cy", "Dee")) -> Session:
    """A one-round session on the USA map (4 players unless given)."""
    return one(entries, players, rules=USA)


def named(name: str, points: int | None = None, completed: bool | None = None) -> dict:
    """A ticket given by name, points and completed only when given."""
    card: dict = {"name": name}
    if points is not None:
        card["points"] = points
    if completed is not None:
        card["completed"] = completed
    return card


def field_warnings(sess: Session) -> list:
    """The warnings at a field (not the round-wide ones, such as nobody being down to 2 trains, nor tickets kept)."""
    return but_kept([p for p in problems(sess) if not p.is_error and p.path != "rounds[1]"])


def claim_errors(sess: Session) -> list[tuple[str, str]]:
    """(path, message) of each error."""
    return [(p.path, p.message) for p in problems(sess) if p.is_error]


def test_map_claimed_routes_score_by_the_route_table():
    sh = sheet(on_map({"Ana": {"claimed": ["Denver – Kansas City", "Kansas City – Omaha", "Helena – Seattle"]}}))
    item = items(sh, "Ana", "routes")[0]
    assert item.points == 7 + 1 + 15
    assert item.why == "claimed routes of 1×1 + 1×4 + 1×6 trains = 1 + 7 + 15 by the route table (11 trains used)"


def test_map_route_names_take_any_dash_case_spacing_and_order():
    sess = on_map({"Ana": {"claimed": ["denver-KANSAS CITY", "Omaha  —  Kansas City", "Saint Louis − Chicago"]}})
    assert errors(sess) == []
    assert points_of(sheet(sess), "Ana", "routes") == 7 + 1 + 2


def test_map_unknown_route_is_an_error_with_the_nearest_name():
    found = claim_errors(on_map({"Bo": {"claimed": ["Denver – Omaha", "Helena – Seattle", "Denvr – Omaha"]}}))
    assert found == [('rounds[1].players."Bo".claimed[3]',
                      "unknown city 'Denvr' in 'Denvr – Omaha'; did you mean 'Denver – Omaha'?")]


def test_map_two_cities_no_route_joins_is_an_error():
    found = claim_errors(on_map({"Bo": {"claimed": ["Denver – Miami"]}}))
    assert [p for p, _ in found] == ['rounds[1].players."Bo".claimed[1]']
    assert found[0][1].startswith("no route joins Denver and Miami")


def test_map_a_route_claimed_twice_by_the_same_player_is_an_error():
    found = claim_errors(on_map({"Bo": {"claimed": ["Denver – Omaha", "Helena – Seattle", "Omaha – Denver"]}}))
    assert found == [('rounds[1].players."Bo".claimed[3]',
                      "Denver – Omaha is listed twice in Bo's claimed routes (claimed[1] and claimed[3]); "
                      "a route is claimed once")]


def test_map_a_single_route_claimed_by_two_players_is_an_error():
    found = claim_errors(on_map({"Ana": {"claimed": ["Helena – Seattle"]},
                                 "Cy": {"claimed": ["Denver – Omaha", "Seattle – Helena"]}}))
    assert found == [('rounds[1].players."Cy".claimed[2]',
                      "Helena – Seattle is a single route and Ana claimed it already; only one player can claim it")]


def test_map_both_routes_of_a_double_route_held_by_one_player_is_an_error():
    found = claim_errors(on_map({"Dee": {"claimed": ["Denver – Kansas City", "Kansas City – Denver"]}}))
    assert [p for p, _ in found] == ['rounds[1].players."Dee".claimed[2]']
    assert "double route" in found[0][1] and "only one of its two routes" in found[0][1]


@pytest.mark.parametrize("count", [2, 3])
def test_map_with_two_or_three_players_a_double_route_is_claimed_once_at_all(count):
    players = ("Ana", "Bo", "Cy")[:count]
    found = claim_errors(on_map({"Ana": {"claimed": ["Denver – Kansas City"]},
                                 players[-1]: {"claimed": ["Omaha – Denver", "Kansas City – Denver"]}}, players))
    assert [p for p, _ in found] == [f'rounds[1].players."{players[-1]}".claimed[2]']
    assert f"with {count} players only one route of a double route is used" in found[0][1]


@pytest.mark.parametrize("count", [4, 5])
def test_map_with_four_or_five_players_two_players_may_share_a_double_route(count):
    players = ("Ana", "Bo", "Cy", "Dee", "Eli")[:count]
    sess = on_map({"Ana": {"claimed": ["Denver – Kansas City"]}, "Bo": {"claimed": ["Kansas City – Denver"]}},
                  players)
    assert errors(sess) == []
    assert points_of(sheet(sess), "Bo", "routes") == 7


def test_map_a_third_claim_of_a_double_route_is_an_error():
    found = claim_errors(on_map({"Ana": {"claimed": ["Denver – Kansas City"]},
                                 "Bo": {"claimed": ["Denver – Kansas City"]},
                                 "Cy": {"claimed": ["Denver – Kansas City"]}}))
    assert found == [('rounds[1].players."Cy".claimed[1]',
                      "Denver – Kansas City is a double route already claimed by Ana and Bo; it has only two routes")]


def test_map_trains_above_45_is_an_error():
    west = ["Seattle – Helena", "Helena – Duluth", "Duluth – Toronto", "Calgary – Winnipeg", "El Paso – Houston",
            "El Paso – Los Angeles", "Miami – New Orleans", "Portland – Salt Lake City"]  # 8 × 6 = 48 trains
    found = errors(on_map({"Ana": {"claimed": west}}))
    assert [p.path for p in found] == ['rounds[1].players."Ana".claimed']
    assert "48 trains" in found[0].message


def test_map_claimed_must_be_a_list_of_text():
    found = errors(on_map({"Ana": {"claimed": ["Denver – Omaha", 7]}}))
    assert [p.path for p in found] == ['rounds[1].players."Ana".claimed[2]']


def test_map_ticket_by_name_alone_takes_its_points_and_completion_from_the_map():
    sess = on_map({"Ana": {"claimed": ["Denver – Santa Fe", "Santa Fe – El Paso"],
                           "tickets": [named("El Paso – Denver"), named("Chicago – Santa Fe")]}})
    assert field_warnings(sess) == [] and errors(sess) == []
    got = items(sheet(sess), "Ana", "ticket")
    assert [(i.points, i.why) for i in got] == [
        (4, "ticket Denver – El Paso connected by the claimed routes: +4"),
        (-9, "ticket Chicago – Santa Fe not connected by the claimed routes: -9")]


def test_map_ticket_points_that_disagree_warn_and_the_map_wins():
    sess = on_map({"Ana": {"tickets": [named("Denver – El Paso", points=5)]}})
    found = field_warnings(sess)
    assert [p.path for p in found] == ['rounds[1].players."Ana".tickets[1].points']
    assert points_of(sheet(sess), "Ana", "ticket") == -4


def test_map_completed_that_disagrees_warns_and_the_map_wins():
    sess = on_map({"Ana": {"claimed": ["Denver – Santa Fe"], "tickets": [named("Denver – El Paso", 4, True)]}})
    found = field_warnings(sess)
    assert [p.path for p in found] == ['rounds[1].players."Ana".tickets[1].completed']
    assert "the map counts" in found[0].message
    assert points_of(sheet(sess), "Ana", "ticket") == -4


def test_map_ticket_not_in_the_deck_is_an_error():
    found = claim_errors(on_map({"Bo": {"tickets": [named("Denver – El Paso"), named("Denver – Miami")]}}))
    assert [p for p, _ in found] == ['rounds[1].players."Bo".tickets[2].name']
    assert "not a destination ticket of the USA map" in found[0][1]


def test_map_ticket_without_name_or_points_is_an_error():
    found = claim_errors(on_map({"Bo": {"tickets": [{"completed": True}]}}))
    assert [p for p, _ in found] == ['rounds[1].players."Bo".tickets[1]']


def test_map_ticket_without_a_name_scores_as_marked():
    sh = sheet(on_map({"Bo": {"tickets": [{"points": 6, "completed": True}]}}))
    assert [(i.points, i.why) for i in items(sh, "Bo", "ticket")] == [(6, "ticket 1 completed: +6")]


def test_without_a_map_tickets_need_points_and_on_a_map_they_do_not():
    game = GAMES[TTR]
    assert game.fields_for({})["tickets"].needs_points is True
    assert game.fields_for(USA)["tickets"].needs_points is False


def test_map_a_ticket_listed_twice_is_a_warning():
    found = warnings(on_map({"Ana": {"tickets": [named("Denver – El Paso")]},
                             "Bo": {"tickets": [named("El Paso – Denver")]}}))
    assert found[:1] == ["round 1: the ticket Denver – El Paso is listed 2 times (Ana and Bo); "
                     "the deck has one of each ticket"]


def test_map_longest_path_is_the_longest_trail_and_repeats_cities():
    # a triangle Calgary – Seattle – Vancouver (4 + 1 + 3) with Calgary – Helena (4) and Calgary – Winnipeg (6)
    claimed = ["Calgary – Seattle", "Seattle – Vancouver", "Vancouver – Calgary", "Calgary – Helena",
               "Calgary – Winnipeg"]
    sh = sheet(on_map({"Ana": {"claimed": claimed}, "Bo": {"claimed": ["Denver – Omaha"]}}))
    item = items(sh, "Ana", "longest-path")[0]
    assert item.points == 10
    assert item.why == ("the longest continuous path (18 trains; next best 4): +10 — "
                        "Helena – Calgary – Vancouver – Seattle – Calgary – Winnipeg")


def test_map_longest_path_tie_shows_every_tied_players_path():
    sh = sheet(on_map({"Ana": {"claimed": ["Denver – Omaha", "Omaha – Chicago"]},
                       "Bo": {"claimed": ["Helena – Winnipeg", "Winnipeg – Duluth"]}}))
    got = items(sh, category="longest-path")
    assert [(i.player, i.points) for i in got] == [("Ana", 10), ("Bo", 10)]
    assert got[0].why.endswith("(8 trains each): +10 — Chicago – Omaha – Denver")
    assert got[1].why.endswith("(8 trains each): +10 — Duluth – Winnipeg – Helena")


def test_map_longest_path_given_that_disagrees_warns_and_the_map_wins():
    sess = on_map({"Ana": {"claimed": ["Denver – Omaha"], "longest_path": 9}, "Bo": {"longest_path": 12}})
    found = field_warnings(sess)
    assert [p.path for p in found] == ['rounds[1].players."Ana".longest_path', 'rounds[1].players."Bo".longest_path']
    assert "4 trains (Denver – Omaha)" in found[0].message
    assert [i.player for i in items(sheet(sess), category="longest-path")] == ["Ana"]


def test_map_routes_or_route_points_that_disagree_warn_and_the_claims_win():
    sess = on_map({"Ana": {"claimed": ["Denver – Omaha"], "route_points": 9, "routes": {"4": 2}}})
    found = field_warnings(sess)
    assert sorted(p.path for p in found) == ['rounds[1].players."Ana".route_points', 'rounds[1].players."Ana".routes']
    assert points_of(sheet(sess), "Ana", "routes") == 7


def test_map_warns_when_no_player_is_down_to_two_trains():
    found = but_kept(warnings(on_map({p: {"claimed": []} for p in ("Ana", "Bo", "Cy", "Dee")})))
    assert len(found) == 1 and "2 or fewer trains left" in found[0]


def test_map_tie_break_counts_the_tickets_the_map_completes():
    sh = sheet(on_map({
        "Ana": {"claimed": ["Denver – Santa Fe", "Santa Fe – El Paso"], "tickets": [named("Denver – El Paso")],
                "route_points": 2 + 2},  # 4 route points + 4 ticket = 8, and Longest Path (4) shared
        "Bo": {"claimed": ["Denver – Omaha"]},  # 7 route points, no ticket
    }, ("Ana", "Bo")))
    # Ana: routes 2 + 2 = 4, ticket +4, longest path 4 (tied with Bo's 4): +10 -> 18
    # Bo: routes 7, longest path 4 (tied): +10 -> 17
    assert sh.totals == {"Ana": 18, "Bo": 17}


def test_map_steps_ask_for_claimed_routes_and_compute_the_path():
    steps = GAMES[TTR].steps(on_map({}))
    assert [s.title for s in steps] == ["Routes", "Destination tickets", "Longest path", "Summary"]
    assert steps[0].inputs == (("claimed", None),)
    assert steps[2].inputs == ()


@st.composite
def map_sessions(draw):
    """A valid session on the USA map: each route pair dealt to at most one player, up to 45 trains each."""
    from scorekeeper.maps import load_map

    usa = load_map("usa")
    players = draw(NAMES)
    pairs = draw(st.permutations(list(usa.city_pairs)))
    deck = [t.name for t in usa.tickets]
    rnd: dict[str, dict] = {}
    for p in players:
        claimed, trains = [], 0
        for _ in range(draw(st.integers(0, 14))):
            if not pairs:
                break
            a, b = pairs.pop()
            length = usa.pair(a, b)[0].length
            if trains + length <= 45:
                claimed.append(f"{a} – {b}" if draw(st.booleans()) else f"{b} - {a}")
                trains += length
        tickets = draw(st.lists(st.sampled_from(deck), max_size=3, unique=True))
        deck = [t for t in deck if t not in tickets]
        rnd[p] = {"claimed": claimed, "tickets": [{"name": t} for t in tickets]}
    return Session(game=TTR, players=tuple(players), rules=dict(USA), rounds=(Round(players=rnd),))


@settings(max_examples=60, deadline=None)
@given(map_sessions(), st.randoms(use_true_random=False))
def test_property_map_items_sum_and_reordering_changes_nothing_but_order(sess, random):
    assert [p.describe() for p in problems(sess) if p.is_error] == []
    a = games.score(sess)
    for p in sess.players:
        assert sum((i.points for i in a.rounds[0].items if i.player == p), Fraction(0)) == a.totals[p]
    order = list(range(len(sess.players)))
    random.shuffle(order)
    b = games.score(reordered(sess, order))
    assert a.totals == b.totals
    place = {p: pl.place for pl in a.ranking for p in pl.players}
    assert place == {p: pl.place for pl in b.ranking for p in pl.players}
    game = GAMES[TTR]
    for p in sess.players:
        assert game.paths(sess, 1)[p] <= game.routes(sess, 1)[p].trains


# -- the USA sample ----------------------------------------------------------------------
def sample_usa() -> Session:
    """Four players on the USA map: claimed routes and tickets by name; the program does the rest."""
    return Session(
        game=TTR, title="USA map night", started=datetime(2026, 5, 9, 19, 45),
        players=("Grace", "Omar", "Priya", "Lukas"), rules={"map": "usa"},
        rounds=(Round(players={
            "Grace": {
                "claimed": ["San Francisco – Portland", "Portland – Seattle", "Seattle – Helena", "Helena – Duluth",
                            "Duluth – Chicago", "Chicago – Pittsburgh", "Pittsburgh – New York",
                            "New York – Boston", "Boston – Montréal", "Helena – Denver", "Denver – Santa Fe",
                            "Santa Fe – El Paso", "Duluth – Winnipeg", "Chicago – Saint Louis"],
                "tickets": [named("Seattle – New York", 22, True), named("Denver – El Paso", 4, True),
                            named("Portland – Nashville", 17, False), named("Chicago – Santa Fe", 9, True)],
            },
            "Omar": {
                "claimed": ["Los Angeles – El Paso", "El Paso – Houston", "Houston – New Orleans",
                            "New Orleans – Atlanta", "Atlanta – Miami", "Atlanta – Raleigh", "Raleigh – Washington",
                            "Los Angeles – Las Vegas", "Las Vegas – Salt Lake City", "Dallas – Houston",
                            "Dallas – Oklahoma City", "Oklahoma City – Kansas City", "Kansas City – Saint Louis"],
                "tickets": [named("Los Angeles – Miami", 20), named("Kansas City – Houston", 5),
                            named("Dallas – New York", 11), named("Seattle – Los Angeles", 9)],
            },
            "Priya": {
                "claimed": ["Denver – Kansas City", "Kansas City – Omaha", "Omaha – Denver", "Omaha – Chicago",
                            "Chicago – Saint Louis", "Saint Louis – Kansas City", "Saint Louis – Nashville",
                            "Nashville – Atlanta", "Nashville – Pittsburgh", "Pittsburgh – Washington",
                            "Washington – New York", "New York – Montréal"],
                "tickets": [named("Denver – Pittsburgh"), named("Atlanta – Montréal"),
                            named("Winnipeg – Little Rock"), named("Sault St. Marie – Nashville")],
            },
            "Lukas": {
                "claimed": ["Vancouver – Calgary", "Calgary – Winnipeg", "Winnipeg – Sault St. Marie",
                            "Sault St. Marie – Toronto", "Toronto – Pittsburgh", "Pittsburgh – Raleigh",
                            "Raleigh – Charleston", "Charleston – Miami", "Vancouver – Seattle", "Seattle – Calgary",
                            "Calgary – Helena"],
                "tickets": [named("Toronto – Miami", completed=True), named("Vancouver – Montréal", completed=False)],
            },
        }),),
    )


BUILT["ticket-to-ride-usa-4p.toml"] = sample_usa

# ticket-to-ride-usa-4p.toml, counted by hand on the USA map:
#   Grace: 14 routes, lengths 5 1 6 6 3 3 2 2 2 4 2 2 4 2 -> 1×1 + 6×2 + 2×3 + 2×4 + 1×5 + 2×6 = 44 trains,
#          1 + 12 + 8 + 14 + 10 + 30 = 75 points. A tree; its leaves are San Francisco, Montréal, El Paso, Winnipeg,
#          Saint Louis. Longest leaf to leaf: San Francisco 5 Portland 1 Seattle 6 Helena 6 Duluth 3 Chicago
#          3 Pittsburgh 2 New York 2 Boston 2 Montréal = 30 (San Francisco – El Paso 20, – Winnipeg 22,
#          – Saint Louis 23; El Paso – Montréal 26). Tickets: Seattle – New York +22 (along that path),
#          Denver – El Paso +4 (via Santa Fe), Chicago – Santa Fe +9 (Duluth, Helena, Denver),
#          Portland – Nashville -17 (no Nashville) -> +18.                                  75 + 18 = 93
#   Omar:  13 routes -> 1×1 + 7×2 + 1×3 + 1×4 + 1×5 + 2×6 = 39 trains, 1 + 14 + 4 + 7 + 10 + 30 = 66 points.
#          A tree; leaves Salt Lake City, Miami, Washington, Saint Louis. Longest: Salt Lake City 3 Las Vegas
#          2 Los Angeles 6 El Paso 6 Houston 2 New Orleans 4 Atlanta 5 Miami = 28 (to Washington 27, to
#          Saint Louis 24). Tickets: Los Angeles – Miami +20, Kansas City – Houston +5 (Oklahoma City, Dallas),
#          Dallas – New York -11, Seattle – Los Angeles -9 -> +5.                         66 + 5 = 71
#   Priya: 12 routes -> 2×1 + 5×2 + 1×3 + 4×4 = 31 trains, 2 + 10 + 4 + 28 = 44 points. Odd-degree cities:
#          Kansas City, Omaha, Saint Louis, Nashville, Atlanta, Montréal; leaving out the two cheapest
#          edges that pair four of them (Kansas City – Omaha 1, Nashville – Atlanta 1) leaves a trail from
#          Montréal to Saint Louis of 31 - 2 = 29: Montréal 3 New York 2 Washington 2 Pittsburgh 4 Nashville
#          2 Saint Louis 2 Chicago 4 Omaha 4 Denver 4 Kansas City 2 Saint Louis (no trail can drop less
#          than 2). Tickets by name alone: Denver – Pittsburgh +11, Atlanta – Montréal +9 (New York,
#          Washington, Pittsburgh, Nashville), Winnipeg – Little Rock -11, Sault St. Marie – Nashville -8
#          -> +1.                                                                          44 + 1 = 45
#   Lukas: 11 routes -> 1×1 + 4×2 + 1×3 + 3×4 + 2×6 = 36 trains, 1 + 8 + 4 + 21 + 30 = 64 points. Only
#          Helena and Miami have odd degree, so one trail uses every route: Helena 4 Calgary 4 Seattle
#          1 Vancouver 3 Calgary 6 Winnipeg 6 Sault St. Marie 2 Toronto 2 Pittsburgh 2 Raleigh 2 Charleston
#          4 Miami = 36 (Calgary twice). Longest of all: +10. Tickets: Toronto – Miami +10,
#          Vancouver – Montréal -20 -> -10.                                                64 - 10 + 10 = 64
USA_PATHS = {"Grace": 30, "Omar": 28, "Priya": 29, "Lukas": 36}
USA_TOTALS = {"Grace": 93, "Omar": 71, "Priya": 45, "Lukas": 64}


def test_usa_sample_longest_paths_and_totals_by_hand():
    sess, found = files.load(SAMPLES / "ticket-to-ride-usa-4p.toml")
    game = GAMES[TTR]
    assert game.paths(sess, 1) == USA_PATHS
    assert {p: r.trains for p, r in game.routes(sess, 1).items()} == {"Grace": 44, "Omar": 39, "Priya": 31,
                                                                      "Lukas": 36}
    sh = games.score(sess, found)
    assert sh.totals == USA_TOTALS
    assert sh.winners == ["Grace"] and sh.tiebreak is None and sh.complete and sh.warnings == []
    assert {p: points_of(sh, p, "routes") for p in sess.players} == {"Grace": 75, "Omar": 66, "Priya": 44,
                                                                     "Lukas": 64}
    bonus = items(sh, category="longest-path")
    assert [(i.player, i.points) for i in bonus] == [("Lukas", 10)]
    assert bonus[0].why == ("the longest continuous path (36 trains; next best 30): +10 — Helena – Calgary – "
                            "Vancouver – Seattle – Calgary – Winnipeg – Sault St. Marie – Toronto – Pittsburgh – "
                            "Raleigh – Charleston – Miami")
    assert [i.points for i in items(sh, "Priya", "ticket")] == [11, 9, -11, -8]
