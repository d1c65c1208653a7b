"""The figures behind the charts (worked out by hand from the samples) and the chart lines drawn from them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper import files, games
from scorekeeper.after.charts import by_category, group_of, groups, running_totals
from scorekeeper.games import Sheet
from scorekeeper.tui.widgets.charts import chart_lines, cut
from scorekeeper.tui.widgets.qr import half_blocks, matrix, picture, quadrants
from tests.helpers import session
from tests.helpers import sheet as scored

SAMPLES = Path(__file__).parent.parent / "sample_sessions"


def sample(name: str) -> Sheet:
    """The score sheet of a sample session."""
    sess, warnings = files.load(SAMPLES / name)
    return games.score(sess, warnings)


def test_group_of_folds_categories() -> None:
    """Attractions and bonuses are one share each; a failed ticket is a share of its own; objectives by name."""
    assert group_of("attraction:8") == group_of("attraction:11") == "attractions"
    assert group_of("bonus:tunnels") == "bonuses"
    assert group_of("ticket", Fraction(8)) == "tickets"
    assert group_of("ticket", Fraction(-8)) == "failed tickets"
    assert group_of("outhouse", Fraction(-2)) == "Outhouses lost"
    assert group_of("outhouse", Fraction(8)) == "outhouses"
    assert group_of("objective:pairs") == "pairs"
    assert group_of("routes") == "routes"


def test_running_totals_of_mars_with_its_extra_round() -> None:
    """Inès 6+4+6 = 16 then 3+0+4 = 7; Rafael 3+8+5 = 16 then 4+3+2 = 9; Sunniva 2+4+8 = 14 then 0+4+4 = 8."""
    steps = running_totals(sample("ticket-to-mars-extra-round.toml"))
    assert [s.number for s in steps] == [1, 2]
    assert steps[0].totals == {"Inès": 16, "Rafael": 16, "Sunniva": 14}
    assert steps[0].leaders() == ["Inès", "Rafael"]
    assert steps[1].gained == {"Inès": 7, "Rafael": 9, "Sunniva": 8}
    assert steps[1].totals == {"Inès": 23, "Rafael": 25, "Sunniva": 22}
    assert steps[1].leaders() == ["Rafael"]
    assert (steps[0].extra, steps[1].extra) == (False, True)  # one round scheduled; the tie forced the second
    lines = [line.plain for line in chart_lines(sample("ticket-to-mars-extra-round.toml"), 76)]
    assert lines[5].startswith("(extra)  Rafael")


def test_by_category_of_ticket_to_ride() -> None:
    """Mia: routes 1 + 3×2 + 2×4 + 3×7 + 10 + 15 = 61, tickets 22 + 8 = 30, Boston – Miami failed -12 → 79."""
    sh = sample("ticket-to-ride-4p.toml")
    assert groups(sh) == ["routes", "tickets", "failed tickets", "longest path"]
    splits = {s.player: s for s in by_category(sh)}
    mia = splits["Mia"]
    assert mia.shares == (("routes", 61), ("tickets", 30), ("failed tickets", -12))
    assert (mia.total, mia.positive(), mia.negative()) == (79, 91, -12)
    # Theo: 2 + 4×2 + 3×4 + 2×7 + 2×10 + 15 = 71, 20 + 11 + 5 = 36 and the Longest Path (24 trains) 10.
    assert splits["Theo"].shares == (("routes", 71), ("tickets", 36), ("longest path", 10))
    assert splits["Theo"].total == 117


def test_shares_add_up_to_the_totals_on_every_sample() -> None:
    """Whatever the game, a player's shares add up to their total."""
    for path in sorted(SAMPLES.glob("*.toml")):
        sh = sample(path.name)
        for split in by_category(sh):
            assert sum((v for _, v in split.shares), Fraction(0)) == sh.totals[split.player], path.name
        steps = running_totals(sh)
        if steps:
            assert steps[-1].totals == sh.totals, path.name


def test_a_share_that_nets_to_zero_is_left_out() -> None:
    """A player who scored nothing has no share at all (a zero is not drawn)."""
    sh = scored(session("ticket-to-mars", ["Kim", "Lou"],
                        {"Kim": {"pairs": {"count": 2, "each": 3}}, "Lou": {"pairs": {"count": 0, "each": 3}}}))
    splits = {s.player: s for s in by_category(sh)}
    assert splits["Kim"].shares == (("pairs", 6),)
    assert splits["Lou"].shares == ()


def test_cut_rounds_so_the_widths_add_up() -> None:
    """Three thirds of 10 columns are 3, 4, 3 (never 3, 3, 3)."""
    assert sum(cut(Fraction(0), [Fraction(1), Fraction(1), Fraction(1)], Fraction(10, 3))) == 10


@pytest.mark.parametrize("width", [60, 76, 116])
def test_chart_lines_fit_and_carry_the_numbers(width: int) -> None:
    """Every line fits the width; the numbers are there as text beside the bars."""
    lines = chart_lines(sample("ticket-booth-3p.toml"), width)
    assert all(line.cell_length <= width for line in lines)
    text = "\n".join(line.plain for line in lines)
    assert "Running totals, round by round" in text
    assert "Where the points came from" in text
    assert "Round 3" in text


def test_chart_of_ride_shows_the_failed_tickets_left_of_zero() -> None:
    """Mia's bar: the failed ticket drawn before the zero line, then routes and tickets; the figures beneath."""
    lines = [line.plain for line in chart_lines(sample("ticket-to-ride-4p.toml"), 76)]
    assert not any(line.startswith("Running totals") for line in lines)  # one round: no running totals
    mia = next(i for i, line in enumerate(lines) if line.startswith("Mia "))
    bar = lines[mia]
    assert bar.index("░") < bar.index("│") < bar.index("▓") < bar.index("▒")
    assert bar.rstrip().endswith(" 79")
    assert lines[mia + 1].split() == ["routes", "61", "·", "tickets", "30", "·", "failed", "tickets", "-12"]


def test_chart_names_are_inert() -> None:
    """A name with markup and an escape byte is drawn literally, the byte shown as an escape."""
    kim, lou = "[b]Kim[/b]", "Lou\x1b[31m"
    sh = games.score(session("ticket-to-mars", [kim, lou],
                             {kim: {"pairs": {"count": 2, "each": 3}}, lou: {"pairs": {"count": 1, "each": 3}}}))
    text = "\n".join(line.plain for line in chart_lines(sh, 76))
    assert "[b]Kim[/b]" in text
    assert "\x1b" not in text and "Lou\\x1b[31m" in text


def test_qr_pictures_hold_every_module() -> None:
    """Half blocks and quadrants decode back to segno's modules, the quiet zone included."""
    rows = matrix("https://app.bgstatsapp.com/createPlay.html?data=%7B%7D")
    size = len(rows)
    assert size == len(rows[0]) and rows[0] == [False] * size and rows[2][2]  # quiet zone, then the finder
    halves = half_blocks(rows)
    top = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
    back = [[bool(top[ch][k]) for ch in line] for line in halves for k in (0, 1)]
    assert back[:size] == rows
    quads = quadrants(rows)
    order = " ▗▖▄▝▐▞▟▘▚▌▙▀▜▛█"
    back = [[bool(order.index(ch) >> (3 - 2 * k - j) & 1) for ch in line for j in (0, 1)]
            for line in quads for k in (0, 1)]
    assert [row[:size] for row in back[:size]] == rows
    assert picture(rows, size) == halves and picture(rows, size - 1) == quads


OUTHOUSES = {"Ana": [{"outhouses": 3, "tickets": 2}, {"outhouses": 1, "tickets": 3}],
             "Bo": [{"tickets": 1}, {"outhouses": 2, "tickets": 1}]}


def outhouse_game():
    rounds = [{p: OUTHOUSES[p][k] for p in OUTHOUSES} for k in range(2)]
    return games.score(session("ticket-booth", ["Ana", "Bo"], *rounds, rules={"rounds": 2}))


def test_outhouse_losses_are_not_netted_and_are_drawn_in_the_error_colour() -> None:
    """Ana's +8 (all three, round 1) and -2 (one, round 2) are two shares; the loss in the error colour, left of
    the zero line; the players' bars of the running totals never take a category's colour."""
    from scorekeeper.tui.widgets.charts import COLOURS, LOSS, PLAYER_COLOURS, category_chart

    lines = category_chart(outhouse_game(), 76)
    plain = [line.plain for line in lines]
    ana = next(i for i, line in enumerate(plain) if line.startswith("Ana "))
    assert plain[ana + 1].split() == ["outhouses", "8", "·", "tickets", "5", "·", "Outhouses", "lost", "-2"]
    bar = lines[ana]
    lost = [span for span in bar.spans if bar.plain[span.start:span.end].strip("░") == ""
            and "░" in bar.plain[span.start:span.end]]
    assert lost and all(str(span.style) == LOSS for span in lost)
    assert bar.plain.index("░") < bar.plain.index("│")
    assert not set(PLAYER_COLOURS) & set(COLOURS)


def outhouse_session(folder):
    from scorekeeper.model.session import Round
    from tests.test_tui_support import write_session

    rounds = tuple(Round(players={p: OUTHOUSES[p][k] for p in OUTHOUSES}) for k in range(2))
    return write_session(folder, "ticket-booth", ["Ana", "Bo"], rules={"rounds": 2}, rounds=rounds)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_charts_with_outhouse_losses_snapshot(tmp_path, monkeypatch, snap_compare, size) -> None:
    """The standings of the Outhouse game, `c`: the charts, Outhouses lost in the error colour."""
    from pathlib import Path

    from tests.test_tui_support import app_for, settle

    monkeypatch.chdir(tmp_path)
    path = outhouse_session(Path("sessions"))

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)

    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=run_before)


def test_c_brings_the_charts_heading_to_the_top(tmp_path) -> None:
    """At 120×40 the short charts of this game end the page: `c` still puts their heading at the top."""
    from textual.containers import VerticalScroll

    from tests.test_tui_support import pilot_test, running, settle

    path = outhouse_session(tmp_path)

    @pilot_test
    async def run() -> None:
        async with running(tmp_path, path) as (app, pilot):
            await pilot.press("c")
            await settle(pilot)
            scroller = app.screen.query_one("#standings", VerticalScroll)
            assert app.screen.query_one("#charts-head").region.y <= scroller.region.y + 2  # its margin above

    run()
