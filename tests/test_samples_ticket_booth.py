"""The Ticket Booth sample sessions, checked against totals worked out by hand.

Each block of comments is the working: per round, what each player scored for what
(#n = attraction n, ½ points written .5), then the totals the test expects.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper import files, games, store

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"

F = Fraction

CASES = [
    # ticket-booth-3p.toml
    #   r1 Ana: #2 +1, #3 +6, #6 +6, #7 +3.5, outhouse -4, demolition-derby +4 = 16.5
    #   r1 Bo: #5 +5, #8 +4, #9 +9, #11 +11, tickets +14 = 43
    #   r1 Cy: #1 +2, #2 +1, #4 +4, #7 +3.5, #8 +4, #10 +10, outhouse -2 = 22.5
    #   r2 Ana: #3 +6, #4 +4, #6 +6, #7 +3.5, outhouse -2 = 17.5
    #   r2 Bo: #1 +2, #8 +8, #9 +9, #11 +11, outhouse -2, demolition-derby +4 = 32
    #   r2 Cy: #2 +4, #5 +5, #7 +3.5, #10 +10, outhouse -2, tickets +1 = 21.5
    #   r3 Ana: #3 +1.5, #5 +2.5, #9 +9, #10 +10, #11 +11, outhouse -2, tickets +10 = 42
    #   r3 Bo: #2 +1, #3 +1.5, #4 +2, #6 +3, #7 +7, #8 +4, tickets +2 = 20.5
    #   r3 Cy: #1 +2, #2 +1, #3 +1.5, #4 +2, #5 +2.5, #6 +3, #8 +4, outhouse -4, demolition-derby +4 = 16
    #   totals: {'Ana': '76', 'Bo': '95.5', 'Cy': '60'}
    ("ticket-booth-3p.toml", {"Ana": 76, "Bo": F(191, 2), "Cy": 60}, ["Bo"], True),
    # ticket-booth-5p.toml
    #   r1 Dana: #2 +1, #4 +2, #6 +3, #10 +5, #11 +11, outhouse -2, tickets +8 = 28
    #   r1 Eli: #2 +1, #4 +2, #6 +3, #8 +8, #9 +4.5, #10 +5, tickets +1 = 24.5
    #   r1 Fay: #1 +2, #6 +3, #7 +7, #10 +5, outhouse -2, tickets +4 = 19
    #   r1 Gus: #4 +2, #5 +5, #6 +3, #9 +4.5, #10 +5, outhouse -2, tickets +7 = 24.5
    #   r1 Hal: #3 +3, #4 +2, #6 +3, #10 +5, demolition-derby +4 = 17
    #   r2 Dana: #4 +4, #5 +2.5, #7 +3.5, #8 +8, outhouse -2, demolition-derby +4 = 20
    #   r2 Eli: #2 +1, #3 +1.5, #6 +3, #10 +10, outhouse -2, tickets +4 = 17.5
    #   r2 Fay: #1 +2, #2 +1, #3 +1.5, #7 +3.5, #11 +5.5, tickets +1 = 14.5
    #   r2 Gus: #5 +2.5, #9 +9, outhouse -2, tickets +7 = 16.5
    #   r2 Hal: #3 +1.5, #6 +3, #11 +5.5, tickets +3 = 13
    #   r3 Dana: #4 +4, #8 +8, outhouse -2, tickets +4 = 14
    #   r3 Eli: #3 +1.5, #5 +2.5, #9 +9, #11 +5.5, tickets +9 = 27.5
    #   r3 Fay: #3 +1.5, #10 +5, #11 +5.5, tickets +7 = 19
    #   r3 Gus: #1 +2, #2 +4, #3 +1.5, #5 +2.5, outhouse -2, tickets +3 = 11
    #   r3 Hal: #6 +6, #7 +7, #10 +5, demolition-derby +4 = 22
    #   totals: {'Dana': '62', 'Eli': '69.5', 'Fay': '52.5', 'Gus': '52', 'Hal': '52'}
    ("ticket-booth-5p.toml", {"Dana": 62, "Eli": F(139, 2), "Fay": F(105, 2), "Gus": 52, "Hal": 52}, ["Eli"], True),
    # ticket-booth-in-progress.toml
    #   r1 Kim: #1 +2, #2 +4, #6 +6, #10 +10, outhouse -4, demolition-derby +4 = 22
    #   r1 Lou: #3 +3, #4 +4, #7 +3.5, #9 +9, tickets +2 = 21.5
    #   r1 Max: #5 +5, #7 +3.5, #8 +8, #11 +11, outhouse -2, ticket-booth +4, tickets +7 = 36.5
    #   r2 Kim: #4 +4, #5 +5, #7 +7, #8 +8, #10 +5, #11 +11, tickets +1 = 41
    #   r2 Lou: #1 +2, #2 +2, #3 +3, #6 +6, #9 +9, #10 +5, outhouse -2, tickets +14 = 39
    #   r2 Max:  = 0
    #   totals: {'Kim': '63', 'Lou': '60.5', 'Max': '36.5'}
    ("ticket-booth-in-progress.toml", {"Kim": 63, "Lou": F(121, 2), "Max": F(73, 2)}, ["Kim"], False),
    # ticket-booth-shared.toml
    #   r1 Ivy: #2 +1, #3 +3, #4 +8, #6 +6, #8 +8, #9 +9, #11 +11, outhouse -2, demolition-derby +4 = 48
    #   r1 Jo: #1 +2, #2 +1, #5 +10, #7 +7, #10 +10, outhouse -4, ticket-booth +4, tickets +7 = 37
    #   r2 Ivy: #2 +1, #4 +2, #5 +10, #7 +7, #8 +8, #11 +11, demolition-derby +4 = 43
    #   r2 Jo: #1 +2, #2 +1, #3 +3, #4 +2, #6 +6, #9 +9, #10 +10, outhouse +8, ticket-booth +4, tickets +9 = 54
    #   r3 Ivy: #4 +4, #7 +7, #8 +8, #9 +9, #11 +11, outhouse -4, tickets +3 = 38
    #   r3 Jo: #1 +2, #2 +4, #3 +3, #5 +5, #6 +12, #10 +10, outhouse -2, demolition-derby +4 = 38
    #   totals: {'Ivy': '129', 'Jo': '129'}
    ("ticket-booth-shared.toml", {"Ivy": 129, "Jo": 129}, ["Ivy", "Jo"], True),
    # ticket-booth-tiebreak.toml
    #   r1 Ana: #2 +1, #5 +5, #7 +7, #11 +11, outhouse -2, tickets +5 = 27
    #   r1 Bo: #1 +2, #4 +2, #9 +9, #10 +5, outhouse -4, tickets +7 = 21
    #   r1 Cy: #3 +3, #8 +8, ticket-booth +4, tickets +7 = 22
    #   r1 Dee: #2 +1, #4 +2, #6 +6, #10 +5, demolition-derby +4 = 18
    #   r2 Ana: #1 +2, #3 +1.5, #9 +9, #10 +10, demolition-derby +4 = 26.5
    #   r2 Bo: #3 +1.5, #5 +2.5, #8 +8, outhouse -4, ticket-booth +4, tickets +11 = 23
    #   r2 Cy: #2 +1, #3 +1.5, #4 +2, #6 +3, #7 +7, tickets +1 = 15.5
    #   r2 Dee: #2 +1, #4 +2, #5 +2.5, #6 +3, #11 +11, outhouse -2, tickets +4 = 21.5
    #   r3 Ana: #4 +2, #7 +3.5, #11 +11, outhouse -2, tickets +3 = 17.5
    #   r3 Bo: #1 +2, #4 +2, #6 +6, #9 +9, tickets +8 = 27
    #   r3 Cy: #2 +4, #3 +3, #4 +2, #7 +3.5, #8 +8, demolition-derby +4 = 24.5
    #   r3 Dee: #4 +2, #5 +5, #7 +3.5, #10 +10, outhouse -4, tickets +4 = 20.5
    #   totals: {'Ana': '71', 'Bo': '71', 'Cy': '62', 'Dee': '60'}
    ("ticket-booth-tiebreak.toml", {"Ana": 71, "Bo": 71, "Cy": 62, "Dee": 60}, ["Bo"], True),
]


@pytest.mark.parametrize(("name", "totals", "winners", "complete"), CASES)
def test_ticket_booth_sample_totals(name, totals, winners, complete):
    session, found = files.load(SAMPLES / name)
    sheet = games.score(session, found)
    assert sheet.totals == totals
    assert sheet.winners == winners
    assert sheet.complete is complete
    assert not sheet.warnings or not complete


def test_tiebreak_sample_is_settled_by_the_last_round():
    sheet = games.score(*files.load(SAMPLES / "ticket-booth-tiebreak.toml"))
    assert sheet.tiebreak == "Ana and Bo tied on 71; Bo scored more in the last round (27 to 17.5)"


def test_in_progress_sample_says_what_comes_next():
    sheet = games.score(*files.load(SAMPLES / "ticket-booth-in-progress.toml"))
    assert not sheet.rounds[1].complete
    assert sheet.next == "score round 2 (first player: Lou)"


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_every_sample_round_trips_byte_for_byte(path):
    session, _ = files.load(path)
    assert store.dumps(session) == path.read_text(encoding="utf-8")
