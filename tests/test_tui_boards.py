"""Pilot tests of the Europe and Nordic Countries boards: routes, stations and tickets typed by their cities, at the
speed of a burst; every value lands where it was typed, and the file holds what a person typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from scorekeeper import games
from scorekeeper.model.session import Round
from scorekeeper.tui.screens.new_session import NewSessionScreen, RuleRow
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.map_editors import RouteLines, StationLines, TicketLines
from tests.test_tui_map import drawn, editor, live, notes
from tests.test_tui_support import app_for, burst, pilot_test, running, saved, settle, values, write_session

EUROPE = {"map": "europe"}
PLAYERS = ["Ana", "Bo", "Cy"]
ROUTES = {  # typed as a few letters (Tab completes some); what the file must hold
    "Ana": (["par - fra", "fra - ber", "ber - wi⇥", "die - par", "ess - fra"],
            ["Frankfurt – Paris", "Berlin – Frankfurt", "Berlin – Wien", "Dieppe – Paris", "Essen – Frankfurt"]),
    "Bo": (["ess - kob", "kob - sto", "ams - ess", "lon - ams"],
           ["Essen – Kobenhavn", "Kobenhavn – Stockholm", "Amsterdam – Essen", "Amsterdam – London"]),
    "Cy": (["ber - ess", "mad - bar", "bar - mars", "mar - zü", "zur - mün"],
           ["Berlin – Essen", "Barcelona – Madrid", "Barcelona – Marseille", "Marseille – Zürich",
            "München – Zürich"]),
}
STATIONS = {"Ana": (["kob"], ["Kobenhavn"]), "Bo": (["be⇥⇥"], ["Berlin"]), "Cy": ([], [])}
TICKETS = {
    "Ana": (["par - wien", "fra - kob"], ["Paris – Wien", "Frankfurt – Kobenhavn"]),
    "Bo": (["lon - ber", "ber - mos"], ["London – Berlin", "Berlin – Moskva"]),
    "Cy": (["mad - zü", "bar - mün"], ["Madrid – Zürich", "Barcelona – München"]),
}


def step_keys(table: dict[str, tuple[list[str], list[str]]]) -> list[str]:
    """Every player's lines of a list step, each line then Enter, and Enter on the empty line to move on."""
    return [t for player in PLAYERS for t in values(*table[player][0], "")]


def europe_file(tmp_path: Path) -> Path:
    """A new Europe game of three players."""
    return write_session(tmp_path, "ticket-to-ride", PLAYERS, rules=EUROPE)


def check_europe_file(path: Path) -> None:
    """The file holds exactly what was typed, as the map names it, and the core's score of it."""
    session, sheet = saved(path)
    rnd = session.rounds[0].players
    for player in PLAYERS:
        assert rnd[player]["claimed"] == ROUTES[player][1]
        assert rnd[player]["station_cities"] == STATIONS[player][1]
        assert rnd[player]["tickets"] == [{"name": n} for n in TICKETS[player][1]]
        assert set(rnd[player]) == {"claimed", "station_cities", "tickets"}
    # Ana: routes 4+4+4+1+2 = 15, 2 stations not built +8, Paris – Wien +8, Frankfurt – Kobenhavn +5 (station in
    # Kobenhavn uses Bo's Essen – Kobenhavn) = 36; Bo: 4+4+4+2 = 14, +8, London – Berlin +7 (station in Berlin uses
    # Cy's Berlin – Essen), Berlin – Moskva -12, European Express +10 (11 trains) = 27; Cy: 2+2+7+2+2 = 15, +12,
    # +8 +8 = 43
    assert sheet.totals == {"Ana": 36, "Bo": 27, "Cy": 43}
    assert sheet.winners == ["Cy"]


@pilot_test
async def test_europe_round_typed_step_by_step(tmp_path: Path) -> None:
    """Routes, stations and tickets typed player by player; each step shows what the core makes of them."""
    path = europe_file(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Routes"
        assert isinstance(editor(screen, 0), RouteLines)
        await burst(pilot, *step_keys(ROUTES))
        assert screen.step.title == "Stations"
        assert isinstance(editor(screen, 0), StationLines)
        await burst(pilot, *values(*STATIONS["Ana"][0]))
        ana = editor(screen, 0)
        assert ana.footer().plain == "stations: 1 built · 2 left of 3 (+8)"
        assert notes(ana)[0] == "✓ uses Bo's Essen – Kobenhavn"
        await burst(pilot, "enter", *(t for p in PLAYERS[1:] for t in values(*STATIONS[p][0], "")))
        assert screen.step.title == "Destination tickets"
        assert isinstance(editor(screen, 0), TicketLines)
        await burst(pilot, *values(*TICKETS["Ana"][0]))
        assert notes(editor(screen, 0))[:2] == ["✓ connected +8", "✓ connected +5 · station in Kobenhavn"]
        await burst(pilot, "enter", *(t for p in PLAYERS[1:] for t in values(*TICKETS[p][0], "")))
        assert screen.step.title == "European Express"
        shown = live(screen)
        assert drawn(["London", "Amsterdam", "Essen", "Kobenhavn", "Stockholm"], shown)  # Bo's, with the bonus
        assert drawn(["Dieppe", "Paris", "Frankfurt", "Berlin", "Wien"], shown)  # Ana's, without
        assert drawn(["Madrid", "Barcelona", "Marseille", "Zürich", "München"], shown)  # Cy's, without
        await burst(pilot, "enter")
        assert screen.step.title == "Summary"
        shown = live(screen)
        heading = " ".join(str(screen.query_one("#step-title", Static).render()).split())
        assert "The European Express: +10" in heading and "then fewest stations built" in heading
        assert "station in Berlin: uses Cy's Berlin – Essen (completes London – Berlin)" in shown
        table = str(screen.query_one("#round-table", Static).render())
    check_europe_file(path)
    totals = {line.split()[0]: line.split()[-1] for line in table.splitlines()[2:] if line.strip()}
    assert totals == {"Ana": "36", "Bo": "27", "Cy": "43"}


@pilot_test
async def test_europe_whole_round_in_one_burst(tmp_path: Path) -> None:
    """Every player's routes, then their stations, then their tickets, sent at once: each lands where typed."""
    path = europe_file(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, *step_keys(ROUTES), *step_keys(STATIONS), *step_keys(TICKETS), "enter")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Summary"
    check_europe_file(path)


@pilot_test
async def test_station_refusals_at_the_box(tmp_path: Path) -> None:
    """A city holding another player's station, a fourth station, a city the map lacks: refused at the line, not
    saved; the stations left count only those taken."""
    path = europe_file(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, *step_keys(ROUTES), *values("kob"))
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Stations"
        await burst(pilot, "enter", *values("kob"))  # Bo: Ana's station is in Kobenhavn
        bo = editor(screen, 1)
        assert notes(bo)[0].startswith("✗ Kobenhavn holds two stations")
        assert bo.footer().plain == "stations: 0 built · 3 left of 3 (+12)"
        assert "station_cities" not in saved(path)[0].rounds[0].players.get("Bo", {})
        await burst(pilot, "↑", "ctrl+r", *values("ber", "par", "wien", "ams"))
        assert notes(bo)[3].startswith("✗ a station in Amsterdam would be Bo's station 4")
        assert bo.footer().plain.startswith("stations: 3 built · 0 left of 3")
        assert saved(path)[0].rounds[0].players["Bo"]["station_cities"] == ["Berlin", "Paris", "Wien"]
        await burst(pilot, "↑", "ctrl+r", "↓", "xyz")  # the fourth line removed, the cursor back on the last
        assert notes(bo)[3] == "✗ unknown city 'xyz' on the Europe map"
        await burst(pilot, "enter")
        assert notes(bo)[3].startswith("✗ ") and "xyz" in notes(bo)[3]
        assert saved(path)[0].rounds[0].players["Bo"]["station_cities"] == ["Berlin", "Paris", "Wien"]


@pilot_test
async def test_europe_routes_refused_at_the_box(tmp_path: Path) -> None:
    """With 3 players one track of a double route only; a route another player holds; a length the board lacks;
    on the second city only the cities a route joins are offered."""
    path = europe_file(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, *values(*ROUTES["Ana"][0], ""), *values(*ROUTES["Bo"][0], ""))
        await burst(pilot, *values("kob - ess"))  # Cy: the other track of Bo's double route
        cy = editor(screen, 2)
        assert "with 3 players only one route of a double route is used" in notes(cy)[0]
        await burst(pilot, "↑", "ctrl+r", *values("die - par"))  # Ana's single route
        assert "Dieppe – Paris is a single route and Ana claimed it already" in notes(cy)[0]
        assert saved(path)[0].rounds[0].players["Cy"]["claimed"] == []  # nothing refused was kept
        await burst(pilot, "↑", "ctrl+r", *values("ber - ess 3"))
        assert notes(cy)[0] == "✗ Berlin – Essen is 2 trains long, not 3"
        assert cy.candidates("ber - ", 6) == ["Danzig", "Essen", "Frankfurt", "Warszawa", "Wien"]
        ana = editor(screen, 0)  # on the second city, a route already in the list comes last
        assert ana.candidates("ber - ", 6) == ["Danzig", "Essen", "Warszawa", "Frankfurt", "Wien"]
        assert cy.footer().plain == "trains: 0 used · 45 left of 45"  # the line the map cannot read uses none


NORDIC = {"map": "nordic"}
DUO = ["Ana", "Bo"]
NORDIC_ROUTES = {
    "Ana": (["osl - kri", "kri - sta 3", "sta - ber", "ber - osl"],
            ["Kristiansand – Oslo", "Kristiansand – Stavanger (3)", "Bergen – Stavanger", "Bergen – Oslo"]),
    "Bo": (["tro - mo 6", "tro - lil", "lil - osl", "osl - göt"],
           ["Mo I Rana – Trondheim (6)", "Lillehammer – Trondheim", "Lillehammer – Oslo", "Göteborg – Oslo"]),
}
NORDIC_TICKETS = {
    "Ana": (["osl - sta", "ber - tro"], ["Oslo – Stavanger", "Bergen – Trondheim"]),
    "Bo": (["osl - mo", "göt - ånd"], ["Oslo – Mo I Rana", "Göteborg – Åndalsnes"]),
}


@pilot_test
async def test_nordic_round_in_one_burst(tmp_path: Path) -> None:
    """A 2-player Nordic game in one burst: a double of two lengths typed with its length, 40 trains, the
    Globetrotter tied, its tie-break on the Summary."""
    path = write_session(tmp_path, "ticket-to-ride", DUO, rules=NORDIC)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        keys = [t for p in DUO for t in values(*NORDIC_ROUTES[p][0], "")]
        keys += [t for p in DUO for t in values(*NORDIC_TICKETS[p][0], "")]
        await burst(pilot, *keys)
        assert screen.step.title == "Globetrotter"
        shown = live(screen)
        assert shown.count("the Globetrotter, tied with") == 2
        # each player's longest path drawn (no bonus on this board: it settles a tie)
        assert shown.count("longest continuous path") == 2 and shown.count("it settles a tie") == 2
        assert drawn(["Mo I Rana", "Trondheim", "Lillehammer", "Oslo", "Göteborg"], shown)
        assert "Stavanger" in shown and "Bergen" in shown
        await burst(pilot, "enter")
        assert screen.step.title == "Summary"
        heading = " ".join(str(screen.query_one("#step-title", Static).render()).split())
        assert "The Globetrotter: +10" in heading and "then the longer continuous path" in heading
    session, sheet = saved(path)
    for p in DUO:
        assert session.rounds[0].players[p]["claimed"] == NORDIC_ROUTES[p][1]
        assert session.rounds[0].players[p]["tickets"] == [{"name": n} for n in NORDIC_TICKETS[p][1]]
    # Ana: 2+3+2+4 trains = 2+4+2+7 = 15, Oslo – Stavanger +4, Bergen – Trondheim -7, Globetrotter +10 = 22;
    # Bo: 6+3+2+2 = 15+4+2+2 = 23, Oslo – Mo I Rana +10, Göteborg – Åndalsnes -6, +10 = 37
    assert sheet.totals == {"Ana": 22, "Bo": 37}


@pilot_test
async def test_nordic_double_of_two_lengths_asks_the_length(tmp_path: Path) -> None:
    """`kri - sta` alone asks which track; `kri - sta 4` is a length the board lacks; with 2 players the other
    track is refused; the trains left are of 40."""
    path = write_session(tmp_path, "ticket-to-ride", DUO, rules=NORDIC)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, "kri - sta")
        ana = editor(screen, 0)
        assert "which one? type kri - sta 2 or kri - sta 3 (or Tab)" in notes(ana)[0]
        await burst(pilot, " 4")
        assert notes(ana)[0] == "✗ Kristiansand – Stavanger is 2 or 3 trains long, not 4"
        await burst(pilot, "⌫3", "enter")
        assert notes(ana)[0] == "✓ 3 trains"
        assert ana.footer().plain == "trains: 3 used · 37 left of 40"
        assert saved(path)[0].rounds[0].players["Ana"]["claimed"] == ["Kristiansand – Stavanger (3)"]
        await burst(pilot, "enter", *values("kri - sta 2"))
        bo = editor(screen, 1)
        assert "with 2 players only one route of a double route is used" in notes(bo)[0]
        assert "claimed" not in saved(path)[0].rounds[0].players.get("Bo", {})
        await burst(pilot, "↑", "ctrl+r", "mo - tro⇥⇥")  # Tab: the city, then the tracks of the double in turn
        assert bo.rows[bo.at].text == "Mo I Rana – Trondheim (5)"
        await burst(pilot, "⇥", "enter")
        assert saved(path)[0].rounds[0].players["Bo"]["claimed"] == ["Mo I Rana – Trondheim (6)"]


@pilot_test
async def test_new_session_offers_the_board(tmp_path: Path) -> None:
    """The board is chosen from a list (its line of explanation follows the choice); Nordic Countries with 4
    players is warned at the players; the file says map = "europe"."""
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n", "↓⏎", *values("Ana", "Bo", "Cy", "Di"), "⇥")
        form = app.screen
        assert isinstance(form, NewSessionScreen) and form.game.id == "ticket-to-ride"
        rules = list(form.query(RuleRow))
        help_of = {row.rule.key: row.query_one(".rule-help") for row in rules}
        assert str(help_of["map"].render()).startswith("none: routes typed as counts")
        await burst(pilot, "⇥⇥⏎↓↓↓⏎")  # the bonus, then the board: the third one down
        assert str(help_of["map"].render()).startswith("Nordic Countries: claimed routes and tickets typed")
        problem = str(form.query_one("#players-problem", Static).render())
        assert "Nordic Countries is designed for 2-3 players; this game has 4" in problem
        await burst(pilot, "⏎↑⏎")
        assert str(help_of["map"].render()).startswith("Europe: claimed routes")
        assert not str(form.query_one("#players-problem", Static).render()).strip()
        assert form.query_one("#player-4", Input).value == "Di"
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, WalkthroughScreen)
        assert [s.title for s in app.screen.steps] == ["Routes", "Stations", "Destination tickets",
                                                       "European Express", "Summary"]
    [path] = tmp_path.glob("*.toml")
    assert 'map = "europe"' in path.read_text()
    session, _ = saved(path)
    assert session.rules == {"map": "europe"} and session.players == ("Ana", "Bo", "Cy", "Di")
    assert games.get("ticket-to-ride").fields_for(session.rules)["station_cities"].kind == "map-cities"


# -- snapshots: the Stations and the Tickets steps on Europe, at 80×24 and 120×40 ------------------------------------
def europe_round(*keys: str) -> Round:
    """A Europe round with the given fields of every player filled as typed above."""
    fields = {"claimed": ROUTES, "station_cities": STATIONS, "tickets": TICKETS}
    return Round(players={p: {k: ([{"name": n} for n in fields[k][p][1]] if k == "tickets" else fields[k][p][1])
                              for k in keys} for p in PLAYERS})


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_stations_step_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snap_compare,
                                size: tuple[int, int]) -> None:
    """The Stations step: Ana's station and the route it uses, Bo's city being typed with what Tab offers."""
    monkeypatch.chdir(tmp_path)
    path = write_session(Path("sessions"), "ticket-to-ride", PLAYERS, rules=EUROPE, title="Europe night",
                         rounds=(europe_round("claimed"),))

    async def run_before(pilot) -> None:
        await settle(pilot)
        await burst(pilot, *values("kob"), "enter", "b")

    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_tickets_step_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snap_compare,
                               size: tuple[int, int]) -> None:
    """The Tickets step: each ticket ✓ or ✗, and the station that made one."""
    monkeypatch.chdir(tmp_path)
    path = write_session(Path("sessions"), "ticket-to-ride", PLAYERS, rules=EUROPE, title="Europe night",
                         rounds=(europe_round("claimed", "station_cities"),))

    async def run_before(pilot) -> None:
        await settle(pilot)
        await burst(pilot, *values(*TICKETS["Ana"][0], ""), *values(*TICKETS["Bo"][0]), "↑")

    assert snap_compare(app_for(Path("sessions"), path), terminal_size=size, run_before=run_before)
