"""SPEC 2.1 `ranking[].why`: the tie-break chain at every place, and a sentence exactly where players level on points
were separated by it or still share a place; shown in `score`, the standings and the history."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Static

from scorekeeper.after.report import sheet_text
from scorekeeper.model.session import Round
from tests.helpers import session, sheet
from tests.test_tui_support import app_for, pilot_test, running, settle, write_session


def ticket(points: int, done: bool) -> dict:
    return {"points": points, "completed": done}


def ttr(route: int, done: int, failed: int, path: int) -> dict:
    return {"route_points": route, "longest_path": path,
            "tickets": [ticket(4, True)] * done + [ticket(4, False)] * failed}


def whys(sh) -> list[tuple[int, tuple[str, ...], str | None]]:
    return [(pl.place, pl.players, pl.why) for pl in sh.ranking]


def test_a_tie_for_second_says_who_completed_more_tickets() -> None:
    """Ana and Cat on 76 below Bo: the chain places Ana 2nd and Cat 3rd, and both entries say why; Bo and Dan,
    level with no one, have none."""
    sh = sheet(session("ticket-to-ride", ["Ana", "Bo", "Cat", "Dan"], {
        "Ana": ttr(64, 3, 0, 5), "Bo": ttr(100, 2, 0, 5), "Cat": ttr(58, 2, 0, 9), "Dan": ttr(2, 2, 2, 1)}))
    assert [(pl.place, pl.players, pl.total) for pl in sh.ranking][1:3] == [(2, ("Ana",), 76), (3, ("Cat",), 76)]
    said = "Ana and Cat tied on 76; Ana completed more tickets (3 to 2)"
    assert whys(sh) == [(1, ("Bo",), None), (2, ("Ana",), said), (3, ("Cat",), said), (4, ("Dan",), None)]
    assert sh.tiebreak is None


def test_three_level_below_first_go_down_the_whole_chain() -> None:
    """Ana, Cat and Dan on 40: Ana has the most tickets; Cat and Dan have 2 each, Cat holds the Longest Path."""
    sh = sheet(session("ticket-to-ride", ["Ana", "Bo", "Cat", "Dan"], {
        "Ana": ttr(28, 3, 0, 1), "Bo": ttr(90, 2, 0, 1), "Cat": ttr(22, 2, 0, 9), "Dan": ttr(32, 2, 0, 2)}))
    got = whys(sh)
    assert [g[:2] for g in got] == [(1, ("Bo",)), (2, ("Ana",)), (3, ("Cat",)), (4, ("Dan",))]
    assert got[1][2] == "Ana, Cat and Dan tied on 40; Ana completed more tickets (3 to 2, 2)"
    assert got[2][2] == got[3][2] == ("Ana, Cat and Dan tied on 40; Ana completed more tickets (3 to 2, 2); "
                                      "Cat held the Longest Path bonus")


def test_players_still_level_share_the_place_and_the_next_is_skipped() -> None:
    """The Ticket Booth: Bo and Cy level on the total and the last round share 2nd; the next place is 4th."""
    hand = {"attractions": {"1": 1}, "tickets": 0}
    sh = sheet(session("ticket-booth", ["Ana", "Bo", "Cy", "Di"],
                       {"Ana": {"attractions": {"5": 5}}, "Bo": hand, "Cy": {"attractions": {"2": 1}}, "Di": {}},
                       rules={"rounds": 1}))
    assert [(pl.place, pl.players) for pl in sh.ranking] == [(1, ("Ana",)), (2, ("Bo", "Cy")), (4, ("Di",))]
    assert sh.ranking[1].why == ("Bo and Cy tied on 2; they scored 2 each in the last round; "
                                 "still tied: Bo and Cy share 2nd place")
    assert sh.ranking[0].why is None and sh.ranking[2].why is None


def test_games_without_a_chain_share_and_say_so() -> None:
    """Ticket to Finland has no tie-break; Ticket to Mars settles only the first place, by extra rounds."""
    fin = sheet(session("ticket-to-finland", ["Ana", "Bo", "Cy"], {
        "Ana": {"route_points": 30}, "Bo": {"route_points": 10}, "Cy": {"route_points": 10}}))
    assert fin.ranking[1].players == ("Bo", "Cy")
    assert fin.ranking[1].why == "Bo and Cy tied on 10: Bo and Cy share 2nd place"
    pair = {"pairs": {"count": 2, "each": 3}}
    mars = sheet(session("ticket-to-mars", ["Ana", "Bo", "Cy"], {"Ana": pair, "Bo": pair, "Cy": {}}))
    assert mars.ranking[0].players == ("Ana", "Bo") and mars.ranking[0].why == mars.tiebreak
    assert "extra round" in (mars.ranking[0].why or "") and mars.ranking[1].why is None


def test_score_prints_the_sentence_under_the_places_it_settled() -> None:
    sh = sheet(session("ticket-to-ride", ["Ana", "Bo", "Cat"], {
        "Ana": ttr(64, 3, 0, 5), "Bo": ttr(100, 2, 0, 5), "Cat": ttr(58, 2, 0, 9)}))
    lines = sheet_text(sh, "x.toml").splitlines()
    at = lines.index(next(line for line in lines if line.startswith("  3. Cat")))
    assert lines[at + 1].strip() == "(Ana and Cat tied on 76; Ana completed more tickets (3 to 2))"


TIED_SECOND = {"Ana": ttr(64, 3, 0, 5), "Bo": ttr(100, 2, 0, 5), "Cat": ttr(58, 2, 0, 9)}


def tied_second(folder: Path) -> Path:
    return write_session(folder, "ticket-to-ride", ["Ana", "Bo", "Cat"], rounds=(Round(players=TIED_SECOND),))


@pilot_test
async def test_the_standings_and_the_history_say_why_ana_is_second(tmp_path: Path) -> None:
    """Opened on the session: the standings under the table; Esc, F2: the history's entry."""
    path = tied_second(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        shown = str(app.screen.query_one("#tiebreak", Static).render())
        assert "Ana and Cat tied on 76; Ana completed more tickets (3 to 2)" in shown
    async with running(tmp_path) as (app, pilot):
        await pilot.press("f2")
        await settle(pilot)
        plays = app.screen.query_one("#plays", OptionList)
        text = "\n".join(str(plays.get_option_at_index(i).prompt) for i in range(plays.option_count))
        assert "\n  Ana and Cat tied on 76; Ana completed more tickets (3 to 2)" in text


def test_standings_with_a_tied_second_place_snapshot_80x24(tmp_path: Path, monkeypatch, snap_compare) -> None:
    """The standings of Bo 108, Ana 76, Cat 76: the sentence under the table."""
    monkeypatch.chdir(tmp_path)
    path = tied_second(Path("sessions"))

    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(app_for(Path("sessions"), path), terminal_size=(80, 24), run_before=run_before)


def test_standings_with_a_tied_second_place_snapshot_120x40(tmp_path: Path, monkeypatch, snap_compare) -> None:
    monkeypatch.chdir(tmp_path)
    path = tied_second(Path("sessions"))

    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(app_for(Path("sessions"), path), terminal_size=(120, 40), run_before=run_before)


def test_the_tie_for_first_is_said_once_with_its_rulebook() -> None:
    """Europe's sample: Finn and Hana tie for first; the sentence is said once (the Tie-break line names the
    rulebook), neither repeated under the places in `score` nor twice in the standings' lines."""
    from scorekeeper import files, games
    from scorekeeper.games.base import tie_lines

    path = Path(__file__).resolve().parent.parent / "sample_sessions" / "ticket-to-ride-europe-4p.toml"
    scored = games.score(*files.load(path))
    text = sheet_text(scored, str(path))
    assert text.count("Finn built fewer stations (1 to 3)") == 1, text
    assert "(the Europe rulebook's tie-break)" in text
    lines = tie_lines(scored)
    assert len(lines) == 1 and lines[0].endswith("(the Europe rulebook's tie-break)"), lines
