"""The evening's second pass (issue 37): each screen said in the table's words, each widget seen whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from scorekeeper.tui.screens.export import CodeScreen, ExportScreen
from scorekeeper.tui.widgets.qr import QRCode, half_blocks, matrix
from tests.test_tui_support import burst, pilot_test, running, settle

SAMPLES = Path(__file__).parent.parent / "sample_sessions"



def seen_whole(widget: Widget) -> bool:
    """Whether the widget is drawn and all of it lies inside the screen and inside what every scrolling container
    around it shows (no scrolling needed to see it)."""
    region = widget.region
    views = [Region(0, 0, *widget.screen.size)]
    views += [w.content_region for w in widget.ancestors if isinstance(w, Widget) and w.is_scrollable]
    return widget.display and region.area > 0 and all(view.contains_region(region) for view in views)


def codes_seen_whole_or_not_at_all(screen: object) -> bool:
    """Every QR code on the screen is either not drawn at all or drawn whole inside the screen."""
    from textual.screen import Screen

    assert isinstance(screen, Screen)
    return all(not code.display or code.region.area == 0 or seen_whole(code) for code in screen.query(QRCode))


@pilot_test
async def test_a_five_player_code_goes_alone_on_a_forty_row_terminal(folder: Path) -> None:
    """ticket-booth-5p at 120x40: its code (39 lines) does not fit beside the bars, and f shows it alone, whole."""
    path = folder / "ticket-booth-5p.toml"
    async with running(folder, path, (120, 40)) as (app, pilot):
        await burst(pilot, "x", "b")
        screen = app.screen
        assert isinstance(screen, ExportScreen) and screen.link is not None
        hints = " ".join(str(w.render()) for w in screen.query(".hint"))
        assert "The code is 39 lines tall and the screen shows 38" in hints and "f shows it alone" in hints
        await burst(pilot, "f")
        assert isinstance(app.screen, CodeScreen)
        code = app.screen.query_one(QRCode)
        assert seen_whole(code)
        assert [strip.text for strip in code.render_lines(code.region.reset_offset)] == half_blocks(
            matrix(screen.link, 0))


@pilot_test
async def test_the_code_is_whole_or_nothing_after_a_resize(folder: Path) -> None:
    """Drawn at 120x60; the terminal down to 40 rows: the code goes (its place says why), never a part of it;
    back to 60 rows, it is drawn again. On the code-alone screen the same."""
    path = folder / "ticket-booth-5p.toml"
    async with running(folder, path, (120, 60)) as (app, pilot):
        await burst(pilot, "x", "b")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert seen_whole(screen.query_one("#qr", QRCode))
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert codes_seen_whole_or_not_at_all(screen) and not screen.query(QRCode)
        hints = " ".join(str(w.render()) for w in screen.query(".hint"))
        assert "The code is 39 lines tall and the screen shows 38" in hints
        await pilot.resize_terminal(120, 60)
        await settle(pilot)
        assert seen_whole(screen.query_one("#qr", QRCode))
        await burst(pilot, "f")
        alone = app.screen
        assert isinstance(alone, CodeScreen) and seen_whole(alone.query_one(QRCode))
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert codes_seen_whole_or_not_at_all(alone) and seen_whole(alone.query_one("#too-small", Static))


@pilot_test
async def test_copying_the_link_covers_none_of_it(folder: Path) -> None:
    """y copies the link: said under the link, no toast over it."""
    async with running(folder, folder / "ticket-booth-3p.toml", (80, 24)) as (app, pilot):
        toasts: list[object] = []
        app.notify = lambda *args, **kwargs: toasts.append(args)  # type: ignore[method-assign]
        await burst(pilot, "x", "b", "y")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert toasts == []
        assert "on the clipboard" in str(screen.query_one("#copied", Static).render())


@pytest.mark.parametrize(("sample", "words", "ids"), [
    ("ticket-booth-in-progress.toml", ["#4 Pie", "#6 Produce", "#1", "Demolition Derby"], ["attraction:4"]),
    ("ticket-to-finland-3p.toml", ["Longest route bonus", "Routes", "Tourist cards"], ["bonus:longest_route"]),
    ("ticket-to-mars-one-round.toml", ["Pairs", "Occupancy"], ["objective:pairs"]),
    ("ticket-to-ride-europe-4p.toml", ["European Express", "Stations", "Destination tickets"], ["longest-path"]),
])
def test_markdown_heads_its_columns_with_the_categorys_words(sample: str, words: list[str], ids: list[str]) -> None:
    """The Markdown sheet's points-by-category table is headed `#4 Pie`, `Longest route bonus`, `Pairs`; the CSV
    keeps the ids in its category column."""
    from scorekeeper import files, games
    from scorekeeper.after import export

    session, warnings = files.load(SAMPLES / sample)
    sheet = games.score(session, warnings)
    text = export.to_markdown(sheet, sample)
    head = next(line for line in text.splitlines() if line.startswith("| Player |"))
    cells = [cell.strip() for cell in head.strip("|").split("|")]
    assert all(word in cells for word in words), cells
    assert not any(":" in cell or "-" in cell and cell == cell.lower() for cell in cells), cells
    assert all(i not in text for i in ids)
    column = [row[6] for row in export.csv_rows(sheet, sample)]
    assert all(i in column for i in ids)


SIZES = [(120, 40), (80, 24), (40, 30)]


def booth_hands(folder: Path) -> Path:
    """Ticket Booth, one round: Jon's 3 #8 Pie cards scored nothing (Lea has 5)."""
    from scorekeeper.model.session import Round
    from tests.test_missed_bonus import HANDS
    from tests.test_tui_support import write_session

    return write_session(folder, "ticket-booth", ["Jon", "Lea", "Mo"],
                         rules={"rounds": 1, "attraction_names": {"8": "Pie"}}, rounds=(Round(players=HANDS),))


async def to_the_summary(pilot) -> None:  # type: ignore[no-untyped-def]
    """From the standings: Enter edits round 1, PgDn past every step to the Summary."""
    await burst(pilot, "enter")
    await settle(pilot)
    await burst(pilot, *["pagedown"] * 15)
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_zero_point_summary_line_names_its_attraction(tmp_path: Path, monkeypatch, snap_compare,
                                                        size: tuple[int, int]) -> None:
    """The Summary's 0-point line says which attraction: `0  3 #8 Pie cards, but Lea has more (5): 0`."""
    from tests.test_tui_support import app_for

    monkeypatch.chdir(tmp_path)
    path = booth_hands(Path("sessions"))
    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=to_the_summary)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["ticket-to-finland", "ticket-to-ride"])
@pilot_test
async def test_the_route_entry_choice_is_seen_without_scrolling(tmp_path: Path, game: str,
                                                                size: tuple[int, int]) -> None:
    """New session, Finland or Ticket to Ride without a map: "Routes entered as" is inside the screen as drawn."""
    from textual.widgets import Select

    from scorekeeper import games
    from scorekeeper.tui.screens.new_session import NewSessionScreen

    async with running(tmp_path, None, size) as (app, pilot):
        await burst(pilot, "ctrl+n", *["down"] * list(games.GAMES).index(game))
        form = app.screen
        assert isinstance(form, NewSessionScreen) and form.game.id == game
        assert seen_whole(form.query_one("#route-entry", Select))
        assert seen_whole(form.query_one("#route-entry-part"))


async def new_ticket_to_ride(pilot, board: str) -> None:  # type: ignore[no-untyped-def]
    """New session, Ticket to Ride, rule `map` set to the board."""
    from textual.widgets import Select

    from scorekeeper import games
    from scorekeeper.tui.screens.new_session import RuleRow

    await burst(pilot, "ctrl+n", *["down"] * list(games.GAMES).index("ticket-to-ride"))
    form = pilot.app.screen
    row = next(row for row in form.query(RuleRow) if row.rule.key == "map")
    row.query_one(Select).value = board
    await burst(pilot)
    tiebreak = next(row for row in form.query(RuleRow) if row.rule.key == "tiebreak")
    tiebreak.query_one(Select).focus()  # the house rules scrolled into view
    await burst(pilot)


@pytest.mark.parametrize("board", ["europe", "nordic"])
@pilot_test
async def test_new_session_tells_the_rules_of_the_board_chosen(tmp_path: Path, board: str) -> None:
    """Europe: the tie-break names the fewest stations and the European Express, not the Longest Path bonus;
    Nordic Countries: no longest_path_bonus to set, the tie-break goes to the longest path."""
    from scorekeeper.tui.screens.new_session import RuleRow

    async with running(tmp_path, None, (120, 40)) as (app, pilot):
        await new_ticket_to_ride(pilot, board)
        form = app.screen
        shown = {row.rule.key: " ".join(str(row.query_one(".rule-help").render()).split())
                 for row in form.query(RuleRow) if row.display}
        assert "Longest Path bonus" not in shown["tiebreak"]
        if board == "europe":
            assert "the fewest stations built, then the European Express" in shown["tiebreak"]
            assert "European Express" in shown["longest_path_bonus"]
            assert "then the fewest stations built, then the European Express" in shown["map"]
        else:
            assert "longest_path_bonus" not in shown
            assert "then the longest continuous path" in shown["tiebreak"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_new_session_on_nordic_snapshot(tmp_path: Path, monkeypatch, snap_compare, size: tuple[int, int]) -> None:
    """The house rules under map = "nordic": no Longest Path bonus, the board's tie-break."""
    from tests.test_tui_support import app_for

    monkeypatch.chdir(tmp_path)
    folder = Path("sessions")
    folder.mkdir()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await new_ticket_to_ride(pilot, "nordic")
        await settle(pilot)

    assert snap_compare(app_for(folder), terminal_size=size, run_before=run_before)


def test_the_globetrotter_says_no_bonus_to_the_player_with_fewer_tickets() -> None:
    """Nordic Countries: Bo completed 1 ticket, Ana 2: Bo's Globetrotter line says why there is no bonus, as
    Europe's Express does for a shorter path."""
    from tests.helpers import session, sheet

    done = {"points": 4, "completed": True}
    s = session("ticket-to-ride", ["Ana", "Bo"], {"Ana": {"route_points": 20, "tickets": [done, done]},
                                                  "Bo": {"route_points": 20, "tickets": [done]}},
                rules={"edition": "nordic"})
    said = [(i.player, i.points, i.why) for i in sheet(s).rounds[0].items if i.category == "globetrotter"]
    assert said == [("Ana", 10, "the Globetrotter: the most completed tickets (2; next best 1): +10"),
                    ("Bo", 0, "the Globetrotter: completed tickets: 1, but Ana has more (2 tickets): no bonus")]


@pilot_test
async def test_the_phone_home_list_shows_each_result_whole(folder: Path) -> None:
    """At 40 columns every session row seen shows its players and state whole (`— finished — Finn won 71–71
    (built fewer stations)` wraps), nothing cut with an ellipsis."""
    from scorekeeper.tui.screens.home import HomeScreen
    from scorekeeper.tui.screens.listing import SessionList

    async with running(folder, None, (40, 30)) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        listing = home.query_one(SessionList)
        drawn = [listing.render_line(y).text.rstrip() for y in range(listing.scrollable_content_region.height)]
        assert not any(line.endswith("…") for line in drawn), drawn
        seen = 0
        for index, entry in enumerate(listing.rows):
            top, bottom = listing.span(index)
            if bottom - 1 > len(drawn) or entry.error:
                continue
            text = " ".join(" ".join(drawn[top:bottom]).split())
            assert f"— {entry.state}" in text and ", ".join(entry.players) in text, (entry.state, text)
            seen += 1
        assert seen >= 3


def test_phone_home_snapshot(tmp_path: Path, monkeypatch, snap_compare) -> None:
    """The home list at 40 columns: title and game; date and players; the state on its own line."""
    from tests.test_tui_support import app_for

    monkeypatch.chdir(tmp_path)
    target = Path("sessions")
    target.mkdir()
    for when, name in enumerate(("ticket-booth-5p.toml", "ticket-to-ride-europe-4p.toml", "ticket-booth-3p.toml",
                                 "ticket-booth-in-progress.toml")):
        shutil.copy(SAMPLES / name, target / name)
        import os

        os.utime(target / name, (1_800_000_000 + when, 1_800_000_000 + when))
    assert snap_compare(app_for(target), terminal_size=(40, 30), run_before=settle)


def test_statistics_say_a_tie_is_the_closest_finish_and_who_lost_a_tie_break() -> None:
    """A 76–76 game decided on tickets is the closest finish (0, level), not left out; the highest score, Hana's
    76, lost that tie-break and says so; Europe's unbuilt stations are said as players and points."""
    from scorekeeper.after.report import board_lines, stats_text
    from scorekeeper.after.stats import statistics
    from tests.test_stats import summaries

    result = statistics(summaries("ticket-to-ride-tie-tickets.toml", "ticket-to-ride-4p.toml",
                                  "ticket-to-ride-europe-4p.toml"))
    text = stats_text(result, "sessions")
    assert "Closest finish: 0 — level on 76, Jun over Hana on the tie-break" in text, text
    booth = stats_text(statistics(summaries("ticket-booth-tiebreak.toml")), "sessions")
    assert "Highest score: 71 — Ana, who lost the tie-break to Bo" in booth, booth
    europe = next(b for b in result.games[0].boards or () if b.board == "europe")
    assert "left stations unbuilt" in " ".join(board_lines(europe))
    assert "paid 4 each" not in text and "not a closest finish" not in text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_statistics_ties_snapshot(tmp_path: Path, monkeypatch, snap_compare, size: tuple[int, int]) -> None:
    """F3: Ticket to Ride over a tie decided on tickets, a USA and a Europe game: the closest finish is the tie,
    the highest score says it lost the tie-break, Europe's stations read plainly."""
    from tests.test_tui_support import app_for

    monkeypatch.chdir(tmp_path)
    target = Path("sessions")
    target.mkdir()
    for name in ("ticket-to-ride-tie-tickets.toml", "ticket-to-ride-4p.toml", "ticket-to-ride-europe-4p.toml",
                 "ticket-booth-tiebreak.toml"):
        shutil.copy(SAMPLES / name, target / name)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)

    assert snap_compare(app_for(target), terminal_size=size, run_before=run_before)


async def nordic_refused(pilot) -> None:  # type: ignore[no-untyped-def]
    """Ana's routes on Nordic: `osl - kri` read, `kri - sta` refused (which track?), then ↑."""
    from tests.test_tui_support import values

    await settle(pilot)
    await burst(pilot, *values("osl - kri"), "kri - sta", "enter", "up")
    await settle(pilot)


@pilot_test
async def test_a_refused_route_line_corrupts_no_other_line(tmp_path: Path) -> None:
    """After a refused `kri - sta`, ↑ takes the line above whole: typing replaces it (never appends to it); the
    refused line stays where it was, editable; the trains under the list are those scored."""
    from tests.test_tui_map import editor
    from tests.test_tui_support import saved, write_session

    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules={"map": "nordic"})
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        await nordic_refused(pilot)
        ana = editor(screen, 0)
        assert [r.text for r in ana.rows] == ["Kristiansand – Oslo", "kri - sta"] and ana.at == 0
        await burst(pilot, "osl - kri")  # typed over the line landed on, not after it
        assert [r.text for r in ana.rows] == ["osl - kri", "kri - sta"]
        assert ana.footer().plain == "trains: 2 used · 38 left of 40"  # as scored: Kristiansand – Oslo
        await burst(pilot, "down", "end", " 3", "enter")
        assert [r.text for r in ana.rows][1] == "Kristiansand – Stavanger (3)"
        assert saved(path)[0].rounds[0].players["Ana"]["claimed"] == ["Kristiansand – Oslo",
                                                                      "Kristiansand – Stavanger (3)"]
        assert ana.footer().plain == "trains: 5 used · 35 left of 40"
        assert "(5 trains used)" in " ".join(i.why for i in ana.items)


@pilot_test
async def test_help_says_up_and_down_move_by_line_in_a_list(tmp_path: Path) -> None:
    """F1 on the Routes step of a map: ↑ / ↓ go line to line in a list, then to the other player."""
    from tests.test_tui_support import write_session

    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules={"map": "nordic"})
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "f1")
        await settle(pilot)
        from scorekeeper.tui.widgets.hanging import Hanging

        text = " ".join(app.screen.query_one("#help-keys", Hanging).plain().split())
        assert "in a list: the line above / below" in text, text[:2000]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_refused_route_line_snapshot(tmp_path: Path, monkeypatch, snap_compare, size: tuple[int, int]) -> None:
    """Nordic routes: the refused `kri - sta` kept at its line with why; ↑ took the line above whole (drawn as a
    box landed on); the trains under the list as scored."""
    from tests.test_tui_support import app_for, write_session

    monkeypatch.chdir(tmp_path)
    path = write_session(Path("sessions"), "ticket-to-ride", ["Ana", "Bo"], rules={"map": "nordic"})
    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=nordic_refused)


def essen_twice() -> dict[str, dict[str, list[str]]]:
    """Europe: Ana's station in Essen, Ben's 2nd in Essen too."""
    return {"Ana": {"station_cities": ["Essen"]}, "Ben": {"station_cities": ["Berlin", "Essen"]}}


def test_problems_in_the_tables_words_for_the_app_and_the_files_for_check() -> None:
    """Two stations in Essen: `Ben's 2nd station` in the app, `station_cities[2]` for `check`; a tourist card's
    wrong points: type its name alone; Europe's and Nordic's route names are shown by one of their routes."""
    from scorekeeper.games.ticket_to_finland import TOURIST_CARDS
    from tests.helpers import errors, session

    found = errors(session("ticket-to-ride", ["Ana", "Ben"], essen_twice(), rules={"map": "europe"}))
    essen = [p for p in found if "Essen holds" in p.message]
    assert essen and all("station_cities[2]" in p.message and "station_cities" not in p.shown for p in essen)
    assert "Essen holds two stations (Ana's 1st station and Ben's 2nd station)" in essen[0].shown
    assert essen[0].describe().endswith(essen[0].message)  # `check` keeps the file's places

    card = {"name": "Kokkola", "points": 6}
    found = errors(session("ticket-to-finland", ["Ana", "Ben"], {"Ana": {"tourists": [card]}}))
    wrong = next(p for p in found if "Kokkola" in p.message)
    assert "write points = 3" in wrong.message and "points =" not in wrong.shown
    assert wrong.shown == f"Kokkola is a {TOURIST_CARDS['Kokkola']} on its card (rulebook 002), not 6: type its " \
                          "name alone, or 3 Kokkola"

    for board, example in (("europe", "Berlin – Essen"), ("nordic", "Kristiansand – Oslo"),
                           ("usa", "Denver – Kansas City")):
        found = errors(session("ticket-to-ride", ["Ana", "Ben"], {"Ana": {"claimed": ["Oslo"]}},
                               rules={"map": board}))
        said = " ".join(p.shown for p in found)
        assert f"as in '{example}'" in said and ("Denver" not in said or board == "usa"), said


async def to_the_stations(pilot) -> None:  # type: ignore[no-untyped-def]
    """A new Europe round: on to the Stations step, Ana's station in Essen, then Ben's in Berlin and Essen."""
    from tests.test_tui_support import values

    await settle(pilot)
    await burst(pilot, "pagedown", *values("ess", ""), *values("ber", "ess"))
    await settle(pilot)


@pilot_test
async def test_the_stations_step_says_whose_station_in_the_tables_words(tmp_path: Path) -> None:
    """The app at Ben's Essen line: `Ben's 2nd station`, never `station_cities[2]`."""
    from scorekeeper.tui.widgets.grid import StepGrid
    from tests.test_tui_support import write_session

    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Ben"], rules={"map": "europe"})
    async with running(tmp_path, path) as (app, pilot):
        await to_the_stations(pilot)
        screen = app.screen
        shown = " ".join(screen.query_one(StepGrid).plain().split())
        assert "Ana's 1st station and Ben's 2nd station" in shown and "station_cities" not in shown, shown


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_stations_in_the_tables_words_snapshot(tmp_path: Path, monkeypatch, snap_compare,
                                               size: tuple[int, int]) -> None:
    """The Stations step with Essen twice: each Essen line says whose stations, as the table counts them."""
    from tests.test_tui_support import app_for, write_session

    monkeypatch.chdir(tmp_path)
    path = write_session(Path("sessions"), "ticket-to-ride", ["Ana", "Ben"], rules={"map": "europe"})
    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=to_the_stations)


@pilot_test
async def test_on_a_phone_the_code_is_whole_or_not_at_all_across_too(tmp_path: Path) -> None:
    """40 columns: a 4-player game with 12-letter names has a code of 39 quadrant characters with its quiet zone,
    wider than the export screen's box: not drawn cut, the screen says why; f shows it alone, whole."""
    from scorekeeper import store
    from tests.test_bgstats_qr import TWELVE, renamed

    sheet = renamed("ticket-to-ride-europe-4p.toml", TWELVE)
    path = tmp_path / "europe.toml"
    store.save(path, sheet.session)
    async with running(tmp_path, path, (40, 60)) as (app, pilot):
        await burst(pilot, "x", "b")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert codes_seen_whole_or_not_at_all(screen)
        hints = " ".join(" ".join(str(w.render()) for w in screen.query(".hint")).split())
        if not screen.query(QRCode):
            assert "columns wide" in hints and "f shows it alone" in hints, hints
        await burst(pilot, "f")
        assert isinstance(app.screen, CodeScreen) and seen_whole(app.screen.query_one(QRCode))
