"""Ticket to Mars: one test per rule sentence of SPEC 4.4, extra rounds, broken files, properties, samples."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import files, games, store
from scorekeeper.games import GAMES, validation
from scorekeeper.model.session import Round, Session
from tests.helpers import errors, points_of, session, sheet, warnings

TM = "ticket-to-mars"
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_sessions"


def card(count: int, each: int) -> dict:
    """An objective card's result."""
    return {"count": count, "each": each}


def cards(pairs=(0, 0), occupancy=(0, 0), character=(0, 0)) -> dict:
    """A player's three objective cards in a round."""
    return {"pairs": card(*pairs), "occupancy": card(*occupancy), "character": card(*character)}


def rnd(**points: int) -> dict:
    """A round where each named player scores that many points (Character card, 1 per tile); others missing."""
    return {p: cards(character=(v, 1)) if v else {} for p, v in points.items()}


def mars(*rounds: dict, players=("Ana", "Bo", "Cy"), rules=None):
    """A Ticket to Mars session."""
    return session(TM, list(players), *rounds, rules=rules)


# -- objective cards -------------------------------------------------------------------------
def test_points_are_count_times_each_per_card():
    sh = sheet(mars({"Ana": cards((2, 3), (1, 4), (3, 2)), "Bo": {}, "Cy": {}}))
    assert points_of(sh, "Ana", "objective:pairs") == 6
    assert points_of(sh, "Ana", "objective:occupancy") == 4
    assert points_of(sh, "Ana", "objective:character") == 6
    assert sh.totals["Ana"] == 16


def test_each_card_explains_itself_in_its_own_words():
    sh = sheet(mars({"Ana": cards((2, 3), (2, 4), (3, 2)), "Bo": cards((1, 3), (1, 5), (1, 2)), "Cy": {}}))
    whys = {(i.player, i.category): i.why for i in sh.rounds[0].items}
    assert whys[("Ana", "objective:pairs")] == "2 pairs × 3 = 6"
    assert whys[("Ana", "objective:occupancy")] == "2 qualifying spaceships × 4 = 8"
    assert whys[("Ana", "objective:character")] == "3 crew tiles × 2 = 6"
    assert whys[("Bo", "objective:pairs")] == "1 pair × 3 = 3"
    assert whys[("Bo", "objective:occupancy")] == "1 qualifying spaceship × 5 = 5"
    assert whys[("Bo", "objective:character")] == "1 crew tile × 2 = 2"


def test_items_come_card_by_card_in_rulebook_order_then_seating():
    sh = sheet(mars({"Ana": cards((1, 1), (1, 1), (1, 1)), "Bo": cards((1, 1), (1, 1), (1, 1)), "Cy": {}}))
    assert [(i.category, i.player) for i in sh.rounds[0].items] == [
        ("objective:pairs", "Ana"), ("objective:pairs", "Bo"),
        ("objective:occupancy", "Ana"), ("objective:occupancy", "Bo"),
        ("objective:character", "Ana"), ("objective:character", "Bo"),
    ]


def test_a_card_that_scores_nothing_is_not_itemised():
    sh = sheet(mars({"Ana": cards((0, 3), (2, 0), (0, 0)), "Bo": {"pairs": {"each": 4}}, "Cy": {}}))
    assert sh.rounds[0].items == []
    assert sh.totals == {"Ana": 0, "Bo": 0, "Cy": 0}


def test_a_missing_card_or_key_counts_zero():
    sh = sheet(mars({"Ana": {"pairs": {"count": 2}}, "Bo": {"character": card(2, 2)}, "Cy": {}}))
    assert sh.totals == {"Ana": 0, "Bo": 4, "Cy": 0}


def test_big_counts_stay_exact_integers():
    sh = sheet(mars({"Ana": cards(character=(10**6, 10**6)), "Bo": {}, "Cy": {}}))
    assert sh.totals["Ana"] == Fraction(10**12)


# -- rule rounds -------------------------------------------------------------------------------
def test_rule_rounds_defaults_to_one():
    game = GAMES[TM]
    assert game.rule(mars(), "rounds") == 1
    assert game.scheduled_rounds(mars()) == 1
    assert sheet(mars(rnd(Ana=3, Bo=1, Cy=0))).complete


@pytest.mark.parametrize("value", [0, -1, 1.5, True, "2"])
def test_rule_rounds_is_a_whole_number_of_one_or_more(value):
    found = errors(mars(rules={"rounds": value}))
    assert [p.path for p in found] == ["rules.rounds"]
    assert "whole number of 1 or more" in found[0].message


def test_unknown_rule_is_an_error():
    found = errors(mars(rules={"round": 2}))
    assert found[0].path == "rules.round" and "did you mean 'rounds'" in found[0].message


# -- points carry over -------------------------------------------------------------------------
def test_points_carry_over_from_round_to_round():
    sh = sheet(mars(rnd(Ana=10, Bo=4, Cy=7), rnd(Ana=1, Bo=9, Cy=2), rules={"rounds": 2}))
    assert sh.totals == {"Ana": 11, "Bo": 13, "Cy": 9}
    assert sh.complete and sh.winners == ["Bo"] and sh.next is None and sh.tiebreak is None


# -- first player ----------------------------------------------------------------------------
def test_first_player_of_round_one_is_the_first_listed():
    sh = sheet(mars(rnd(Ana=1, Bo=2, Cy=3), players=("Cy", "Ana", "Bo")))
    assert sh.rounds[0].first_player == "Cy"


def test_later_rounds_start_with_the_fewest_points():
    sh = sheet(mars(rnd(Ana=10, Bo=4, Cy=7), rnd(Ana=1, Bo=9, Cy=2), rnd(Ana=0, Bo=0, Cy=0), rules={"rounds": 3}))
    # before round 2: Ana 10, Bo 4, Cy 7 -> Bo; before round 3: Ana 11, Bo 13, Cy 9 -> Cy
    assert [r.first_player for r in sh.rounds] == ["Ana", "Bo", "Cy"]


def test_a_tie_for_fewest_goes_to_the_first_of_them_in_seating_order():
    sh = sheet(mars(rnd(Ana=2, Bo=5, Cy=2), rnd(), rules={"rounds": 2}))
    assert sh.rounds[1].first_player == "Ana"
    sh = sheet(mars(rnd(Ana=9, Bo=5, Cy=5), rnd(), rules={"rounds": 2}))
    assert sh.rounds[1].first_player == "Bo"


def test_a_tie_for_fewest_says_the_tied_players_may_draw_and_who_was_assumed():
    """Rulebook 004: "Choose the first player randomly" (set-up) and, for an extra round, "Go back to the SET UP and
    choose the player with the least victory points as the first player" — on a tie for the least, the tied players
    may draw; the app keeps seating order and says whom it assumed."""
    sh = sheet(mars(rnd(Ana=9, Bo=5, Cy=5), rules={"rounds": 2}))
    assert sh.next == ("score round 2 (first player: Bo — Bo and Cy are tied for the fewest points and may draw for "
                       "it; Bo, first in seating order, is assumed)")
    extra = sheet(mars(rnd(Ana=9, Bo=9, Cy=0, Di=0), players=("Ana", "Bo", "Cy", "Di")))
    assert extra.next == ("extra round: Ana and Bo tied on 9 (first player: Cy — Cy and Di are tied for the fewest "
                          "points and may draw for it; Cy, first in seating order, is assumed)")
    unfinished = sheet(mars(rnd(Ana=9, Bo=5, Cy=5), rnd(Ana=1), rules={"rounds": 2}))
    assert unfinished.next.startswith("score round 2 (first player: Bo — Bo and Cy are tied")
    alone = sheet(mars(rnd(Ana=9, Bo=5, Cy=6), rules={"rounds": 2}))
    assert alone.next == "score round 2 (first player: Bo)"


def test_first_player_of_an_extra_round_is_the_fewest_points():
    sh = sheet(mars(rnd(Ana=6, Bo=6, Cy=2), rnd(Ana=1, Bo=0, Cy=0)))
    assert [r.first_player for r in sh.rounds] == ["Ana", "Cy"]


def test_every_round_reports_its_first_player():
    sh = sheet(mars(rnd(Ana=6, Bo=6, Cy=8), rnd(Ana=1), rules={"rounds": 3}))
    assert [r.first_player for r in sh.rounds] == ["Ana", "Ana"]
    assert [r.complete for r in sh.rounds] == [True, False]


# -- what comes next -------------------------------------------------------------------------
def test_next_names_the_missing_round_and_its_first_player():
    sh = sheet(mars(rnd(Ana=6, Bo=2, Cy=8), rules={"rounds": 2}))
    assert not sh.complete
    assert sh.next == "score round 2 (first player: Bo)"


def test_next_names_an_unfinished_round():
    sh = sheet(mars(rnd(Ana=6, Bo=2), rules={"rounds": 2}))
    assert not sh.complete and sh.next == "score round 1 (first player: Ana)"


def test_a_new_session_starts_with_round_one():
    sh = sheet(mars())
    assert not sh.complete and sh.next == "score round 1 (first player: Ana)" and sh.tiebreak is None


def test_decided_game_is_complete_with_one_winner_and_no_tiebreak():
    sh = sheet(mars(rnd(Ana=6, Bo=9, Cy=8)))
    assert sh.complete and sh.next is None
    assert sh.winners == ["Bo"] and sh.tiebreak is None
    assert [(p.place, p.players) for p in sh.ranking] == [(1, ("Bo",)), (2, ("Cy",)), (3, ("Ana",))]


def test_a_tie_below_first_place_needs_no_extra_round():
    sh = sheet(mars(rnd(Ana=6, Bo=9, Cy=6)))
    assert sh.complete and sh.winners == ["Bo"] and sh.tiebreak is None
    assert [(p.place, p.players) for p in sh.ranking] == [(1, ("Bo",)), (2, ("Ana", "Cy"))]


# -- a tie for the most after the schedule ------------------------------------------------------
def test_a_tie_for_most_after_the_last_round_is_not_a_result():
    sh = sheet(mars(rnd(Ana=31, Bo=31, Cy=20)))
    assert sh.complete is False
    assert sh.next == "extra round: Ana and Bo tied on 31 (first player: Cy)"
    assert sh.tiebreak == "Ana and Bo tied on 31 after round 1: an extra round decides"


def test_while_tied_the_leaders_share_place_one_and_are_listed_as_winners():
    sh = sheet(mars(rnd(Ana=31, Bo=31, Cy=20, Di=20), players=("Ana", "Bo", "Cy", "Di")))
    assert [(p.place, p.players) for p in sh.ranking] == [(1, ("Ana", "Bo")), (3, ("Cy", "Di"))]
    assert sh.winners == ["Ana", "Bo"]
    assert sh.complete is False


def test_extra_round_first_player_when_the_tied_leaders_are_everyone():
    sh = sheet(mars(rnd(Ana=5, Bo=5, Cy=5)))
    assert sh.next == ("extra round: Ana, Bo and Cy tied on 5 (first player: Ana — Ana, Bo and Cy are tied for "
                       "the fewest points and may draw for it; Ana, first in seating order, is assumed)")


def test_a_tie_on_zero_after_the_schedule_still_needs_an_extra_round():
    sh = sheet(mars(rnd(Ana=0, Bo=0, Cy=0)))
    assert sh.complete is False
    assert sh.next == ("extra round: Ana, Bo and Cy tied on 0 (first player: Ana — Ana, Bo and Cy are tied for "
                       "the fewest points and may draw for it; Ana, first in seating order, is assumed)")


def test_the_tie_is_judged_after_the_last_scheduled_round_not_before():
    sh = sheet(mars(rnd(Ana=4, Bo=4, Cy=1), rules={"rounds": 2}))
    assert sh.next == "score round 2 (first player: Cy)"
    assert sh.tiebreak == "Ana and Bo tied on 4 so far: the game goes on"


def test_extra_round_settles_the_tie_and_the_tiebreak_says_so():
    sh = sheet(mars(rnd(Ana=31, Bo=31, Cy=20), rnd(Ana=5, Bo=3, Cy=4)))
    assert sh.complete is True and sh.next is None
    assert sh.winners == ["Ana"]
    assert sh.totals == {"Ana": 36, "Bo": 34, "Cy": 24}
    assert sh.tiebreak == "Ana and Bo tied on 31 after round 1; the extra round (round 2) decided it: Ana 36, Bo 34"


def test_an_outsider_can_win_the_extra_round():
    sh = sheet(mars(rnd(Ana=31, Bo=31, Cy=29), rnd(Ana=0, Bo=1, Cy=9)))
    assert sh.complete and sh.winners == ["Cy"]
    assert sh.tiebreak == ("Ana and Bo tied on 31 after round 1; the extra round (round 2) decided it: "
                           "Cy 38, Bo 32, Ana 31")


def test_a_tie_that_survives_an_extra_round_needs_another():
    tied = rnd(Ana=31, Bo=31, Cy=20)
    again = rnd(Ana=4, Bo=4, Cy=6)
    settled = rnd(Ana=2, Bo=7, Cy=0)
    first = sheet(mars(tied))
    second = sheet(mars(tied, again))
    third = sheet(mars(tied, again, settled))
    assert (first.complete, second.complete, third.complete) == (False, False, True)
    assert first.next == "extra round: Ana and Bo tied on 31 (first player: Cy)"
    # before round 3: Ana 35, Bo 35, Cy 26
    assert second.next == "extra round: Ana and Bo tied on 35 (first player: Cy)"
    assert second.tiebreak == ("Ana and Bo tied on 31 after round 1; still tied on 35 after the extra round "
                               "(round 2): another extra round decides")
    assert third.next is None and third.winners == ["Bo"]
    assert third.totals == {"Ana": 37, "Bo": 42, "Cy": 26}
    assert third.tiebreak == ("Ana and Bo tied on 31 after round 1; still tied on 35 after extra round 1 (round 2); "
                              "extra round 2 (round 3) decided it: Bo 42, Ana 37")
    assert [r.first_player for r in third.rounds] == ["Ana", "Cy", "Cy"]


def test_the_tied_leaders_may_change_between_extra_rounds():
    sh = sheet(mars(rnd(Ana=10, Bo=10, Cy=8), rnd(Ana=0, Bo=2, Cy=4)))
    assert sh.next == "extra round: Bo and Cy tied on 12 (first player: Ana)"
    assert sh.tiebreak == ("Ana and Bo tied on 10 after round 1; Bo and Cy tied on 12 after the extra round "
                           "(round 2): another extra round decides")


def test_an_unfinished_extra_round_is_scored_next():
    sh = sheet(mars(rnd(Ana=31, Bo=31, Cy=20), rnd(Cy=3)))
    assert sh.complete is False and sh.next == "score round 2 (first player: Cy)"
    assert sh.tiebreak == "Ana and Bo tied on 31 after round 1: an extra round decides"


def test_extra_rounds_follow_a_longer_schedule_too():
    sh = sheet(mars(rnd(Ana=3, Bo=1, Cy=2), rnd(Ana=0, Bo=2, Cy=0), rnd(Ana=2, Bo=0, Cy=0), rules={"rounds": 2}))
    assert sh.complete and sh.winners == ["Ana"]
    assert sh.tiebreak == "Ana and Bo tied on 3 after round 2; the extra round (round 3) decided it: Ana 5, Bo 3"


# -- rounds past the schedule ------------------------------------------------------------------
def test_an_extra_round_without_a_tie_is_an_error_at_its_round():
    extra = mars(rnd(Ana=9, Bo=6, Cy=6), rnd(Ana=1, Bo=1, Cy=1))
    found = errors(extra)
    assert [p.path for p in found] == ["rounds[2]"]
    msg = found[0].message
    assert "round 2 is an extra round (rule rounds = 1)" in msg
    assert "Ana leads on 9 after round 1 (next best: Bo and Cy on 6)" in msg
    assert "only when the rounds before it end in a tie for the most points" in msg
    assert found[0].round == 2
    [in_file] = [p for p in files.parse(store.dumps(extra))[1] if p.is_error]
    assert in_file.line == store.dumps(extra).split("\n").index("[[rounds]]", 9) + 1


def test_an_extra_round_after_a_decided_extra_round_is_an_error():
    found = errors(mars(rnd(Ana=5, Bo=5, Cy=0), rnd(Ana=1, Bo=0, Cy=0), rnd(), rnd()))
    assert [p.path for p in found] == ["rounds[3]"]
    assert "Ana leads on 6 after round 2" in found[0].message


def test_an_extra_round_after_an_unfinished_round_is_an_error():
    found = errors(mars(rnd(Ana=5, Bo=5), rnd(Ana=1, Bo=0, Cy=0)))
    assert [p.path for p in found] == ["rounds[2]"]
    assert "round 1 is not finished (no scores for Cy)" in found[0].message


def test_a_scheduled_round_is_never_an_extra_round():
    assert errors(mars(rnd(Ana=9, Bo=1, Cy=1), rnd(), rules={"rounds": 2})) == []


def test_the_extra_round_error_is_raised_by_score_too():
    from scorekeeper.model.session import SessionError

    with pytest.raises(SessionError) as exc:
        games.score(mars(rnd(Ana=9, Bo=6, Cy=6), rnd()))
    assert exc.value.problems[0].path == "rounds[2]"


# -- warnings ------------------------------------------------------------------------------------
def test_a_count_without_points_per_unit_is_a_warning():
    found = warnings(mars({"Ana": {"pairs": {"count": 2}}, "Bo": {}, "Cy": {}}))
    assert found == ["round 1: Ana's Pairs card counts 2 pairs but each = 0, so it scores nothing; "
                     "give each = the points per pair printed on the card"]
    sess = mars({"Ana": {"pairs": {"count": 2}}, "Bo": {}, "Cy": {}})
    paths = [p.path for p in validation.validate(sess)]
    assert paths == ['rounds[1].players."Ana".pairs.each']


def test_more_pairs_or_crew_tiles_than_the_box_holds_is_a_warning():
    found = warnings(mars({"Ana": cards((16, 1), (9, 1), (31, 1)), "Bo": cards((15, 1), (0, 0), (30, 1)), "Cy": {}}))
    assert found == ["round 1: Ana's Pairs card counts 16 pairs, but 30 Crew tiles make at most 15 pairs",
                     "round 1: Ana's Character card counts 31 crew tiles, but there are 30 Crew tiles"]
    assert sheet(mars({"Ana": cards((16, 1)), "Bo": {}, "Cy": {}})).totals["Ana"] == 16


# -- steps ---------------------------------------------------------------------------------------
def test_walkthrough_steps_follow_the_rulebook():
    steps = GAMES[TM].steps(mars())
    assert [s.title for s in steps] == ["Pairs", "Occupancy", "Character", "Summary"]
    assert steps[0].inputs == (("pairs", "count"), ("pairs", "each"))
    assert [s.categories for s in steps] == [("objective:pairs",), ("objective:occupancy",),
                                             ("objective:character",), ()]
    assert steps[-1].id == "summary"
    assert all(s.help for s in steps)


def test_fields_are_the_three_objective_cards():
    from scorekeeper.games.fields import ObjectiveField

    fields = GAMES[TM].fields_for({})
    assert list(fields) == ["pairs", "occupancy", "character"]
    assert all(isinstance(f, ObjectiveField) for f in fields.values())


def test_game_is_registered_after_the_other_ticket_games():
    order = ["ticket-booth", "ticket-to-ride", "ticket-to-finland", "ticket-to-mars"]
    ids = [g for g in GAMES if g in order]
    assert ids == [g for g in order if g in GAMES] and ids[-1] == TM
    game = GAMES[TM]
    assert (game.name, game.rulebook, game.min_players, game.max_players) == ("Ticket to Mars", "004", 2, 5)
    assert game.summary and game.seating_hint


# -- broken files ----------------------------------------------------------------------------------
HEAD = 'format = 1\ngame = "ticket-to-mars"\nplayers = ["Ana", "Bo"]\n\n[[rounds]]\n[rounds.players.Ana]\n'


def broken(bo_lines: str) -> list:
    """The errors of a one-round file where Bo's table holds these lines."""
    text = HEAD + 'pairs = { count = 1, each = 3 }\n[rounds.players.Bo]\n' + bo_lines
    session_, problems = files.parse(text)
    assert session_ is None
    return [p for p in problems if p.is_error]


@pytest.mark.parametrize(("line", "path", "words"), [
    ("pairs = { count = 1.5, each = 3 }", 'rounds[1].players."Bo".pairs.count', "a decimal number (1.5)"),
    ("occupancy = { count = 1, each = true }", 'rounds[1].players."Bo".occupancy.each', "true/false (true)"),
    ("character = { count = -2, each = 3 }", 'rounds[1].players."Bo".character.count', "-2 is out of range"),
    ("character = { count = 2, each = -1 }", 'rounds[1].players."Bo".character.each', "-1 is out of range"),
    ("pairs = { count = 1, each = 3, bonus = 2 }", 'rounds[1].players."Bo".pairs.bonus', "unknown key 'bonus'"),
    ("pair = { count = 1, each = 3 }", 'rounds[1].players."Bo".pair', "did you mean 'pairs'"),
    ("pairs = 6", 'rounds[1].players."Bo".pairs', "expected a table like { count = 2, each = 3 }"),
    ('pairs = { count = "2", each = 3 }', 'rounds[1].players."Bo".pairs.count', "text ('2')"),
])
def test_broken_objective_is_a_located_error(line, path, words):
    found = broken(line + "\n")
    assert [p.path for p in found] == [path]
    assert words in found[0].message
    assert found[0].line == 9  # Bo's table starts on line 8; the broken key is the next line


def test_broken_entries_report_every_problem():
    found = broken("pairs = { count = 1.5, each = false }\nspaceships = 2\n")
    assert [p.path for p in found] == ['rounds[1].players."Bo".pairs.count', 'rounds[1].players."Bo".pairs.each',
                                       'rounds[1].players."Bo".spaceships']
    assert "allowed: pairs, occupancy, character" in found[2].message


def test_the_extra_round_error_carries_its_toml_line():
    text = (HEAD + 'character = { count = 3, each = 1 }\n[rounds.players.Bo]\ncharacter = { count = 1, each = 1 }\n'
            '\n[[rounds]]\n[rounds.players.Ana]\n[rounds.players.Bo]\n')
    session_, problems = files.parse(text)
    assert session_ is None
    assert [(p.path, p.line) for p in problems if p.is_error] == [("rounds[2]", 11)]


# -- properties ------------------------------------------------------------------------------------
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli"]
small = st.integers(0, 6)
entry_st = st.fixed_dictionaries({}, optional={
    key: st.fixed_dictionaries({}, optional={"count": small, "each": small})
    for key in ("pairs", "occupancy", "character")
})


@st.composite
def games_st(draw, extra: bool = False):
    """A session of 2–5 players and 1–4 complete rounds (scheduled, or rule rounds = 1 when extra)."""
    players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
    count = draw(st.integers(1, 4))
    rounds = [{p: draw(entry_st) for p in players} for _ in range(count)]
    return mars(*rounds, players=tuple(players), rules={"rounds": 1 if extra else count})


@settings(max_examples=60, deadline=None)
@given(games_st())
def test_property_items_sum_to_round_points_and_rounds_to_totals(sess):
    sh = games.score(sess)
    for r in sh.rounds:
        for p in sess.players:
            assert sum((i.points for i in r.items if i.player == p), Fraction(0)) == r.points[p]
            entry = sess.round(r.number).entry(p)
            expected = sum(entry.get(k, {}).get("count", 0) * entry.get(k, {}).get("each", 0)
                           for k in ("pairs", "occupancy", "character"))
            assert r.points[p] == expected
        assert all(i.points > 0 for i in r.items)
    for p in sess.players:
        assert sh.totals[p] == sum((r.points[p] for r in sh.rounds), Fraction(0))


@settings(max_examples=60, deadline=None)
@given(games_st(), st.randoms(use_true_random=False))
def test_property_reordering_players_changes_nothing_but_order(sess, random):
    order = list(sess.players)
    random.shuffle(order)
    other = Session(game=TM, players=tuple(order), rules=sess.rules, rounds=sess.rounds)
    a, b = games.score(sess), games.score(other)
    assert a.totals == b.totals
    assert [r.points for r in a.rounds] == [r.points for r in b.rounds]
    assert [(p.place, set(p.players), p.total) for p in a.ranking] == [(p.place, set(p.players), p.total)
                                                                       for p in b.ranking]
    assert set(a.winners) == set(b.winners) and a.complete == b.complete
    assert (a.tiebreak is None) == (b.tiebreak is None)


@settings(max_examples=80, deadline=None)
@given(games_st(extra=True), st.randoms(use_true_random=False))
def test_property_extra_rounds_are_allowed_exactly_after_ties(sess, random):
    found = [p for p in games.check(sess) if p.is_error]
    totals = dict.fromkeys(sess.players, 0)
    allowed = True
    for number, r in enumerate(sess.rounds, start=1):
        if number > 1 and allowed:
            top = max(totals.values())
            allowed = sum(1 for v in totals.values() if v == top) > 1
            if not allowed:
                assert [p.path for p in found] == [f"rounds[{number}]"]
        for p in sess.players:
            e = r.players[p]
            totals[p] += sum(e.get(k, {}).get("count", 0) * e.get(k, {}).get("each", 0) for k in e)
    if allowed:
        assert found == []
        sh = games.score(sess)
        top = max(totals.values())
        assert sh.complete == (sum(1 for v in totals.values() if v == top) == 1)
    order = list(sess.players)
    random.shuffle(order)
    other = Session(game=TM, players=tuple(order), rules=sess.rules, rounds=sess.rounds)
    assert [p.path for p in games.check(other) if p.is_error] == [p.path for p in found]


@settings(max_examples=40, deadline=None)
@given(games_st())
def test_property_a_session_survives_the_toml_round_trip(sess):
    parsed, problems = files.parse(store.dumps(sess))
    assert parsed == sess
    assert store.dumps(parsed) == store.dumps(sess)


# -- samples ---------------------------------------------------------------------------------------
def _entry(pairs, occupancy, character) -> dict:
    return cards(pairs, occupancy, character)


def sample_one_round() -> Session:
    """A one-round game, rule rounds at its default."""
    return Session(
        game=TM, players=("Ngozi", "Tomasz", "Lena"), title="Launch night at the Okafors'",
        started=datetime(2026, 3, 14, 20, 15),
        rounds=(Round(players={
            "Ngozi": _entry((2, 3), (1, 5), (4, 1)),
            "Tomasz": _entry((1, 3), (2, 4), (3, 2)),
            "Lena": _entry((3, 2), (0, 5), (5, 1)),
        }),),
    )


def sample_two_rounds() -> Session:
    """A two-round game of four (rule rounds = 2), won from last place."""
    return Session(
        game=TM, players=("Maya", "Jonas", "Priya", "Kofi"), title="Sunday league, week 6",
        started=datetime(2026, 4, 19, 15, 0), notes="Kofi started round 2 from last place.",
        rules={"rounds": 2},
        rounds=(
            Round(players={
                "Maya": _entry((2, 2), (1, 4), (2, 2)),
                "Jonas": _entry((1, 2), (2, 3), (3, 1)),
                "Priya": _entry((3, 2), (0, 4), (4, 1)),
                "Kofi": _entry((0, 3), (1, 4), (2, 1)),
            }),
            Round(players={
                "Maya": _entry((1, 3), (1, 3), (1, 2)),
                "Jonas": _entry((2, 3), (1, 4), (2, 1)),
                "Priya": _entry((2, 2), (2, 3), (2, 1)),
                "Kofi": _entry((3, 3), (1, 5), (4, 1)),
            }),
        ),
    )


def sample_extra_round() -> Session:
    """A one-round game that ended in a tie and needed an extra round."""
    return Session(
        game=TM, players=("Inès", "Rafael", "Sunniva"), title="Mars club final",
        started=datetime(2026, 5, 2, 19, 30),
        rounds=(
            Round(players={
                "Inès": _entry((2, 3), (1, 4), (3, 2)),
                "Rafael": _entry((1, 3), (2, 4), (1, 5)),
                "Sunniva": _entry((1, 2), (1, 4), (4, 2)),
            }),
            Round(players={
                "Inès": _entry((1, 3), (0, 4), (2, 2)),
                "Rafael": _entry((2, 2), (1, 3), (1, 2)),
                "Sunniva": _entry((0, 3), (1, 4), (2, 2)),
            }),
        ),
    )


SAMPLE_FILES = {
    "ticket-to-mars-one-round.toml": sample_one_round,
    "ticket-to-mars-two-rounds.toml": sample_two_rounds,
    "ticket-to-mars-extra-round.toml": sample_extra_round,
}


@pytest.mark.parametrize("name", sorted(SAMPLE_FILES))
def test_sample_is_the_dump_of_its_session_and_round_trips(name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    built = SAMPLE_FILES[name]()
    assert text == store.dumps(built), "regenerate with: .venv/bin/python -m tests.test_ticket_to_mars --write"
    loaded, problems = files.load(SAMPLES / name)
    assert problems == []
    assert loaded == built
    assert store.dumps(loaded) == text


def test_sample_one_round_totals_by_hand():
    sh = games.score(files.load(SAMPLES / "ticket-to-mars-one-round.toml")[0])
    assert sh.rounds[0].first_player == "Ngozi"  # round 1: the first listed player
    assert sh.totals == {
        "Ngozi": 15,   # pairs 2×3=6 + occupancy 1×5=5 + character 4×1=4
        "Tomasz": 17,  # pairs 1×3=3 + occupancy 2×4=8 + character 3×2=6
        "Lena": 11,    # pairs 3×2=6 + occupancy 0×5=0 + character 5×1=5
    }
    assert sh.winners == ["Tomasz"] and sh.complete and sh.next is None and sh.tiebreak is None


def test_sample_two_rounds_totals_by_hand():
    sh = games.score(files.load(SAMPLES / "ticket-to-mars-two-rounds.toml")[0])
    assert sh.rounds[0].points == {
        "Maya": 12,   # 2×2=4 + 1×4=4 + 2×2=4
        "Jonas": 11,  # 1×2=2 + 2×3=6 + 3×1=3
        "Priya": 10,  # 3×2=6 + 0×4=0 + 4×1=4
        "Kofi": 6,    # 0×3=0 + 1×4=4 + 2×1=2
    }
    assert sh.rounds[1].first_player == "Kofi"  # fewest points after round 1: Kofi 6
    assert sh.rounds[1].points == {
        "Maya": 8,    # 1×3=3 + 1×3=3 + 1×2=2
        "Jonas": 12,  # 2×3=6 + 1×4=4 + 2×1=2
        "Priya": 12,  # 2×2=4 + 2×3=6 + 2×1=2
        "Kofi": 18,   # 3×3=9 + 1×5=5 + 4×1=4
    }
    assert sh.totals == {
        "Maya": 20,   # 12 + 8
        "Jonas": 23,  # 11 + 12
        "Priya": 22,  # 10 + 12
        "Kofi": 24,   # 6 + 18
    }
    assert [(p.place, p.players) for p in sh.ranking] == [(1, ("Kofi",)), (2, ("Jonas",)), (3, ("Priya",)),
                                                          (4, ("Maya",))]
    assert sh.winners == ["Kofi"] and sh.complete and sh.tiebreak is None


def test_sample_extra_round_totals_by_hand():
    sh = games.score(files.load(SAMPLES / "ticket-to-mars-extra-round.toml")[0])
    assert sh.rounds[0].points == {
        "Inès": 16,     # 2×3=6 + 1×4=4 + 3×2=6
        "Rafael": 16,   # 1×3=3 + 2×4=8 + 1×5=5
        "Sunniva": 14,  # 1×2=2 + 1×4=4 + 4×2=8
    }
    # a tie for the most after the only scheduled round: extra round, first player the fewest (Sunniva 14)
    assert [r.first_player for r in sh.rounds] == ["Inès", "Sunniva"]
    assert sh.rounds[1].points == {
        "Inès": 7,      # 1×3=3 + 0×4=0 + 2×2=4
        "Rafael": 9,    # 2×2=4 + 1×3=3 + 1×2=2
        "Sunniva": 8,   # 0×3=0 + 1×4=4 + 2×2=4
    }
    assert sh.totals == {
        "Inès": 23,     # 16 + 7
        "Rafael": 25,   # 16 + 9
        "Sunniva": 22,  # 14 + 8
    }
    assert sh.winners == ["Rafael"] and sh.complete and sh.next is None
    assert sh.tiebreak == ("Inès and Rafael tied on 16 after round 1; "
                           "the extra round (round 2) decided it: Rafael 25, Inès 23")


def test_sample_extra_round_before_the_extra_round():
    full = files.load(SAMPLES / "ticket-to-mars-extra-round.toml")[0]
    sh = games.score(full.without_last_round())
    assert sh.complete is False and sh.winners == ["Inès", "Rafael"]
    assert sh.next == "extra round: Inès and Rafael tied on 16 (first player: Sunniva)"


def test_cli_scores_a_sample_as_json():
    path = SAMPLES / "ticket-to-mars-extra-round.toml"
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "score", "--json", str(path)],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["game"] == TM and data["players"] == ["Inès", "Rafael", "Sunniva"]
    assert data["totals"] == {"Inès": 23, "Rafael": 25, "Sunniva": 22}
    assert [r["first_player"] for r in data["rounds"]] == ["Inès", "Sunniva"]
    assert data["rounds"][0]["items"][0] == {"player": "Inès", "category": "objective:pairs", "points": 6,
                                             "why": "2 pairs × 3 = 6"}
    assert data["ranking"][0] == {"place": 1, "players": ["Rafael"], "total": 25, "why": None}
    assert data["winners"] == ["Rafael"] and data["complete"] is True and data["next"] is None
    assert data["tiebreak"].startswith("Inès and Rafael tied on 16 after round 1")
    assert data["warnings"] == []


def write_samples() -> None:
    """Write the sample files from the sessions built above (run: python -m tests.test_ticket_to_mars --write)."""
    for name, build in SAMPLE_FILES.items():
        store.save(SAMPLES / name, build())
        print(SAMPLES / name)


if __name__ == "__main__" and "--write" in sys.argv:
    write_samples()
