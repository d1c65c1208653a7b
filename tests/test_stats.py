"""Statistics over the samples, every figure worked out by hand from the sample files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from scorekeeper.after.stats import statistics as typed_statistics
from scorekeeper.after.stats_model import json_data
from scorekeeper.cli import main
from scorekeeper.index.indexing import summarize


def statistics(*args: Any, **kwargs: Any) -> Any:
    """The statistics as the JSON data `stats --json` prints (what these tests read)."""
    return json_data(typed_statistics(*args, **kwargs))

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
BOOTH = ("ticket-booth-3p.toml", "ticket-booth-tiebreak.toml", "ticket-booth-shared.toml", "ticket-booth-5p.toml",
         "ticket-booth-in-progress.toml")


def summaries(*names: str) -> list:
    return [summarize(SAMPLES / n) for n in names]


def rows(result: dict, game: str) -> dict:
    block = next(g for g in result["games"] if g["game"] == game)
    return {r["player"]: r for r in block["players"]}


def test_ticket_booth_players_by_hand():
    # Finished: 3p (Ana 76, Bo 95.5, Cy 60; Bo wins, 2026-11-27), tiebreak (Ana 71, Bo 71, Cy 62, Dee 60; Bo wins on
    # the last round, 2026-10-02), shared (Ivy 129, Jo 129, both win, 2026-09-12), 5p (Dana 62, Eli 69.5, Fay 52.5,
    # Gus 52, Hal 52; Eli wins, 2026-08-15). The in-progress one is not counted.
    result = statistics(summaries(*BOOTH))
    assert result["sessions"] == 4 and result["unfinished"] == 1 and result["invalid"] == []
    bo = rows(result, "ticket-booth")["Bo"]
    # Bo: 2 plays, 2 wins; average (95.5 + 71) / 2 = 83.25; best 95.5, worst 71; 3 players: 95.5, 4 players: 71;
    # wins on 10-02 then 11-27: a streak of 2.
    assert bo == {"player": "Bo", "plays": 2, "wins": 2, "win_rate": 1.0, "longest_streak": 2, "average": 83.25,
                  "best": 95.5, "worst": 71, "average_by_player_count": {"3": 95.5, "4": 71},
                  "start_player": {"plays": 0, "wins": 0, "win_rate": 0.0}}  # Ana is first in both
    ana = rows(result, "ticket-booth")["Ana"]
    # Ana: 76 and 71, no win: average 73.5.
    assert (ana["plays"], ana["wins"], ana["average"], ana["best"], ana["worst"]) == (2, 0, 73.5, 76, 71)
    # A shared victory is a win for both.
    assert rows(result, "ticket-booth")["Ivy"]["wins"] == 1 and rows(result, "ticket-booth")["Jo"]["wins"] == 1
    # Order: win rate, then wins: Bo (2 of 2) before Ivy (1 of 1).
    assert next(iter(rows(result, "ticket-booth"))) == "Bo"


def test_margins_and_head_to_head_by_hand():
    result = statistics(summaries(*BOOTH))
    block = result["games"][0]
    # Margins (first place total minus the best other total): 3p 95.5 - 76 = 19.5; tiebreak 71 - 71 = 0;
    # shared 129 - 129 = 0; 5p 69.5 - 62 = 7.5. Biggest 19.5 (3p); closest: a tie on points, 0 — the first one
    # counted, the shared victory (Ivy and Jo on 129 each), level; the tie-broken win and the shared victory counted.
    assert block["biggest_margin"]["margin"] == 19.5 and block["biggest_margin"]["file"] == "ticket-booth-3p.toml"
    assert block["biggest_margin"]["winners"] == ["Bo"] and block["biggest_margin"]["runner_up"] == "Ana"
    closest = block["closest_finish"]
    assert closest["margin"] == 0 and closest["level"] and closest["file"] == "ticket-booth-shared.toml", closest
    assert closest["winners"] == ["Ivy", "Jo"] and closest["runner_up"] is None
    assert (block["tie_broken_wins"], block["shared_victories"]) == (1, 1)
    # Ana against Bo: 3p Bo 1st, Ana 2nd; tiebreak Bo 1st (last round), Ana 2nd: 2 games, Bo above twice.
    h2h = {(h["player"], h["opponent"]): h for h in result["head_to_head"]}
    assert h2h["Ana", "Bo"] == {"player": "Ana", "opponent": "Bo", "games": 2, "above": 0, "below": 2, "level": 0}
    # Ivy and Jo share the victory (129 each, still tied after the last round): level.
    assert h2h["Ivy", "Jo"] == {"player": "Ivy", "opponent": "Jo", "games": 1, "above": 0, "below": 0, "level": 1}
    # Gus and Hal tie on 52 in the 5p game; the tie-break (the better last round: Hal 22, Gus 11) puts Hal above.
    assert (h2h["Gus", "Hal"]["above"], h2h["Gus", "Hal"]["below"]) == (0, 1)


def test_ticket_booth_points_by_attraction_by_hand():
    result = statistics(summaries("ticket-booth-3p.toml"))
    booth = result["games"][0]["ticket_booth"]
    by = {a["category"]: a["points"] for a in booth["attractions"]}
    # #1 has one card: round 1 Cy holds it (all cards: 2 x 1 = 2), round 2 Bo (2), round 3 Cy (2): 6 in all.
    assert by["attraction:1"] == 6
    # #11, round 1: Bo 7 cards, Cy 4 -> Bo 11; round 2: Bo 6, Ana 4 -> Bo 11 ... the export's table gives
    # Ana 11 + Bo 22 = 33 over the game (round 3: Ana 5, Bo 3, Cy 3 -> Ana 11).
    assert by["attraction:11"] == 33
    assert booth["attractions"][0]["points"] >= booth["attractions"][-1]["points"]  # most points first


def test_ticket_to_ride_tickets_and_longest_path_by_hand():
    result = statistics(summaries("ticket-to-ride-4p.toml"))
    block = result["games"][0]
    # Tickets completed: Mia 2, Theo 3, Lena 2, Sam 4 = 11; failed: Mia 1 (Boston – Miami), Lena 1 = 2.
    assert block["tickets"] == {"completed": 11, "failed": 2, "completed_rate": round(11 / 13, 4)}
    # Longest path: Theo's 24 trains is the longest; Theo won with 117: the holder won 1 game of 1.
    assert block["longest_path"] == {"games": 1, "holder_won": 1, "rate": 1.0}
    assert rows(result, "ticket-to-ride")["Theo"]["tickets_completed"] == 3


def test_filters_game_player_since():
    everything = summaries(*sorted(p.name for p in SAMPLES.glob("*.toml")))
    result = statistics(everything, player="bo")  # ignoring case
    assert result["sessions"] == 2 and [g["game"] for g in result["games"]] == ["ticket-booth"]
    assert [r["player"] for r in result["games"][0]["players"]] == ["Bo"]
    assert all(h["player"] == "Bo" for h in result["head_to_head"])
    result = statistics(everything, since="2026-10-01")
    assert result["sessions"] == 2  # 3p on 11-27 and tiebreak on 10-02 (in progress on 11-28 not finished)
    result = statistics(everything, game="ticket-to-mars")
    assert {g["game"] for g in result["games"]} == {"ticket-to-mars"} and result["sessions"] == 3
    json.dumps(result)  # JSON-able


def test_stats_command_with_filters(tmp_path, capsys):
    for name in BOOTH:
        shutil.copy(SAMPLES / name, tmp_path / name)
    assert main(["stats", str(tmp_path), "--player", "Ana", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == 2 and data["games"][0]["players"][0]["player"] == "Ana"
    assert main(["stats", str(tmp_path), "--since", "2026-10-01"]) == 0
    out = capsys.readouterr().out
    assert "2 finished sessions" in out and "Biggest winning margin: 19.5" in out
    assert main(["stats", str(tmp_path), "--since", "yesterday"]) == 1
    assert main(["stats", str(tmp_path), "--game", "ticket-boot"]) == 1
    assert "did you mean" in capsys.readouterr().err


def test_a_player_filter_counts_only_their_points_by_category():
    result = statistics(summaries("ticket-booth-3p.toml", "ticket-to-ride-4p.toml"), player="Cy")
    booth = {a["category"]: a["points"] for a in result["games"][0]["ticket_booth"]["attractions"]}
    # Cy's #1: the one card in rounds 1 and 3 (2 points each); Bo's round-2 #1 is not Cy's.
    assert booth["attraction:1"] == 4
    result = statistics(summaries("ticket-to-ride-4p.toml"), player="Lena")
    block = result["games"][0]
    # Lena: Portland – Nashville and Denver – El Paso completed, Winnipeg – Little Rock failed; Theo, not Lena,
    # held the Longest Path.
    assert block["tickets"]["completed"] == 2 and block["tickets"]["failed"] == 1
    assert block["longest_path"] == {"games": 0, "holder_won": 0, "rate": 0.0}


def test_figures_exact_and_rounded_as_people_do():
    from fractions import Fraction

    from scorekeeper.after.report import _fig
    from scorekeeper.after.stats import round2

    # The plain table printed 6 significant digits: 300000.5 showed as 300000, 100303.5 as 100304.
    assert (_fig(300000.5), _fig(100303.5), _fig(71), _fig(83.25)) == ("300000.5", "100303.5", "71", "83.25")
    # Averages: exactly to 2 places, halves away from zero (9/8 = 1.125 -> 1.13, 15/8 = 1.875 -> 1.88).
    assert [round2(Fraction(n, 8)) for n in (9, 15, -9)] == [Fraction(113, 100), Fraction(188, 100),
                                                              Fraction(-113, 100)]
    # 2.675 is 2.67499... as a float: the exact fraction rounds up.
    assert round2(Fraction(2675, 1000)) == Fraction(268, 100)


def test_names_compared_after_nfc_and_case_folding(tmp_path):
    import unicodedata

    nfc, nfd = unicodedata.normalize("NFC", "Zoë"), unicodedata.normalize("NFD", "Zoë")
    assert nfc != nfd
    text = (SAMPLES / "ticket-to-ride-4p.toml").read_text(encoding="utf-8")
    for i, name in enumerate((nfc, nfd, "ZOË")):
        (tmp_path / f"s{i}.toml").write_text(text.replace(".Mia]", f'."{name}"]').replace("Mia", name),
                                             encoding="utf-8")
    found = [summarize(p) for p in sorted(tmp_path.glob("*.toml"))]
    result = statistics(found)
    # One player, not three rows that look alike: 3 plays, shown as first met, in NFC.
    zoe = [r for r in rows(result, "ticket-to-ride").values() if r["player"].casefold().startswith("zo")]
    assert [(r["player"], r["plays"]) for r in zoe] == [(nfc, 3)]
    assert statistics(found, player=nfd)["sessions"] == 3


def test_screen_never_cuts_two_names_to_one_label():
    from scorekeeper.tui.screens.statistics import name_labels

    a, b, short = "Alexandra Johansson", "Alexandra Johanssen", "Bo"
    labels = name_labels([a, b, short])
    # Cut at 16 columns both would read `Alexandra Johan…`: shown whole instead; Bo is short already.
    assert labels == {a: a, b: b, short: short}
    # One long name alone is cut as before.
    assert name_labels([a, short])[a] == "Alexandra Johan…"
    # A name that is itself the cut form of another: the other is shown whole.
    assert name_labels(["Alexandra Johan…", a]) == {"Alexandra Johan…": "Alexandra Johan…", a: a}


def test_player_page_by_hand():
    # Ana: 3p (Bo 95.5, Ana 76, Cy 60: 2nd, Bo just ahead) and tiebreak (Bo 71 and Ana 71, Bo 1st on the last round,
    # Ana 2nd; Cy 62, Dee 60): no win; Bo just ahead twice and above her in both games.
    page = statistics(summaries(*BOOTH), player="ANA")["player_page"]
    assert page["player"] == "Ana" and (page["plays"], page["wins"], page["win_rate"]) == (2, 0, 0.0)
    # Ana is seated first (the start player) in both, and lost both.
    assert page["by_game"] == [{"game": "ticket-booth", "name": "The Ticket Booth", "plays": 2, "wins": 0,
                                "win_rate": 0.0, "start_player": {"plays": 2, "wins": 0, "win_rate": 0.0}}]
    assert page["start_player"] == {"plays": 2, "wins": 0, "win_rate": 0.0}
    assert page["by_player_count"] == {"3": {"plays": 1, "wins": 0, "win_rate": 0.0},
                                       "4": {"plays": 1, "wins": 0, "win_rate": 0.0}}
    assert page["rival"] == {"player": "Bo", "just_ahead": 2}
    assert page["nemesis"] == {"player": "Bo", "above": 2, "games": 2}
    # Hal: 5p only (Eli 69.5, Dana 62, Fay 52.5, Hal 52 above Gus 52 on the tie-break): Fay just ahead; four above
    # him once each, the nemesis the first of them by name... all once: Dana, Eli, Fay.
    hal = statistics(summaries(*BOOTH), player="hal")["player_page"]
    assert hal["rival"] == {"player": "Fay", "just_ahead": 1} and hal["nemesis"]["above"] == 1
    # Bo won both, in date order 10-02 then 11-27: a streak of 2, still running.
    bo = statistics(summaries(*BOOTH), player="bo")["player_page"]
    assert (bo["current_streak"], bo["longest_streak"], bo["rival"], bo["nemesis"]) == (2, 2, None, None)


def test_records_say_who_and_when_and_plays_by_month():
    result = statistics(summaries(*BOOTH))
    block = result["games"][0]
    # The highest score: Ivy and Jo 129 in the shared game (2026-09-12); Ivy is met first.
    assert block["highest_score"]["points"] == 129 and block["highest_score"]["date"] == "2026-09-12"
    assert block["highest_score"]["player"] in ("Ivy", "Jo")
    # 08-15, 09-12, 10-02, 11-27: one play a month, four in 2026.
    assert result["plays_by_month"] == {"2026-08": 1, "2026-09": 1, "2026-10": 1, "2026-11": 1}
    assert result["plays_by_year"] == {"2026": 4}


def test_until_and_year(tmp_path, capsys):
    # until 2026-10-02 keeps 08-15, 09-12 and 10-02 (that day included); since 09-12 until 10-02: two.
    assert statistics(summaries(*BOOTH), until="2026-10-02")["sessions"] == 3
    assert statistics(summaries(*BOOTH), since="2026-09-12", until="2026-10-02")["sessions"] == 2
    folder = tmp_path / "s"
    folder.mkdir()
    for name in BOOTH:
        shutil.copy(SAMPLES / name, folder / name)
    assert main(["stats", str(folder), "--year", "2026", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == 4
    assert (data["filters"]["since"], data["filters"]["until"]) == ("2026-01-01", "2026-12-31")
    assert main(["stats", str(folder), "--year", "2025", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == 0
    assert main(["stats", str(folder), "--until", "2026-10-02", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == 3
    assert main(["stats", str(folder), "--year", "2026", "--since", "2026-02-01"]) == 1
    assert "--year" in capsys.readouterr().err
    assert main(["stats", str(folder), "--until", "soon"]) == 1
    assert "--until takes a date" in capsys.readouterr().err


def test_statistics_as_csv(tmp_path, capsys):
    import csv
    import io

    folder = tmp_path / "s"
    folder.mkdir()
    for name in BOOTH:
        shutil.copy(SAMPLES / name, folder / name)
    assert main(["stats", str(folder), "--csv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game,board,player,plays,") and out.endswith("\r\n")
    table = list(csv.reader(io.StringIO(out)))
    # Bo, by hand above: 2 plays, 2 wins, average 83.25, best 95.5, worst 71, streak 2; never the start player.
    assert ["ticket-booth", "", "Bo", "2", "2", "1.0", "83.25", "95.5", "71", "2", "0", "0", "0.0"] in table
    # Ana started both of hers (seated first) and won neither; Ivy started the shared one, and shared it.
    assert ["ticket-booth", "", "Ana", "2", "0", "0.0", "73.5", "76", "71", "0", "2", "0", "0.0"] in table
    assert ["ticket-booth", "", "Ivy", "1", "1", "1.0", "129", "129", "129", "1", "1", "1", "1.0"] in table
    assert len(table) == 1 + 11  # the header, then the 11 players of the four finished games


def test_finland_tourists_and_bonuses_by_hand():
    block = statistics(summaries("ticket-to-finland-3p.toml"))["games"][0]
    # Tourist cards: Aino -8 + 6 + 3, Eero -7 + 6 + 5 + 4, Liisa -3 + 8 + 5: 1 + 8 + 10 = 19.
    assert block["finland"]["tourists"] == 19
    bonus = {b["bonus"]: b["points"] for b in block["finland"]["bonuses"]}
    # Longest route shared by Aino and Liisa (5 each), valid tickets by Aino and Eero (10 each); the others once.
    assert bonus == {"longest_route": 10, "tunnels": 15, "ferries": 15, "longest_journey": 20, "cities_visited": 10,
                     "valid_tickets": 20, "foreign_countries": 25, "perimeter_path": 25}
    assert [b["bonus"] for b in block["finland"]["bonuses"]][:2] == ["foreign_countries", "perimeter_path"]
    # Liisa only: her tourists -3 + 8 + 5 = 10.
    assert statistics(summaries("ticket-to-finland-3p.toml"), player="liisa")["games"][0]["finland"]["tourists"] == 10


TTR = ("ticket-to-ride-europe-4p.toml", "ticket-to-ride-nordic-2p.toml", "ticket-to-ride-tie-shared.toml",
       "ticket-to-ride-tie-tickets.toml", "ticket-to-ride-usa-4p.toml", "ticket-to-ride-4p.toml")


def test_start_player_win_rate_by_hand():
    # Hana plays Europe (seated 4th: Eva starts; Finn wins), tie-shared (seated 1st: she starts; shares the victory
    # with Jun) and tie-tickets (1st: she starts; Jun wins on tickets): 3 plays, 1 win; as start player 2 plays,
    # 1 win: 50%. In the Ticket Booth samples Ana starts both of hers and wins neither (above).
    page = statistics(summaries(*TTR), player="hana")["player_page"]
    assert (page["plays"], page["wins"]) == (3, 1)
    assert page["start_player"] == {"plays": 2, "wins": 1, "win_rate": 0.5}
    # Jun never starts (seated 2nd in both).
    jun = statistics(summaries(*TTR), player="Jun")["player_page"]
    assert (jun["plays"], jun["wins"], jun["start_player"]) == (2, 2, {"plays": 0, "wins": 0, "win_rate": 0.0})
    # The summary keeps the start player: the first player of round 1.
    assert summarize(SAMPLES / "ticket-to-ride-europe-4p.toml").start_player == "Eva"


def test_ticket_to_ride_by_board_by_hand():
    boards = {s.file: s.board for s in summaries(*TTR)}
    assert boards == {"ticket-to-ride-europe-4p.toml": "europe", "ticket-to-ride-nordic-2p.toml": "nordic",
                      "ticket-to-ride-tie-shared.toml": "none", "ticket-to-ride-tie-tickets.toml": "none",
                      "ticket-to-ride-usa-4p.toml": "usa", "ticket-to-ride-4p.toml": "none"}
    block = statistics(summaries(*TTR))["games"][0]
    assert block["plays"] == 6
    by = {b["board"]: b for b in block["boards"]}
    assert [b["board"] for b in block["boards"]] == ["usa", "europe", "nordic", "none"]
    assert {k: b["plays"] for k, b in by.items()} == {"usa": 1, "europe": 1, "nordic": 1, "none": 3}
    assert [b["name"] for b in block["boards"]] == ["USA map", "Europe", "Nordic Countries", "no board"]
    # Europe: Eva built 3 stations (Lisboa, Frankfurt, Wien), Finn 1 (London), Gus 0, Hana 3: 7 of 4 players,
    # 1.75 on average; Finn (2 unused: +8) and Gus (3 unused: +12) scored unused stations: 2 of 4, 20 points.
    assert by["europe"]["stations"] == {"results": 4, "built": 7, "average_built": 1.75, "unused": 2,
                                        "unused_rate": 0.5, "unused_points": 20}
    assert "globetrotter" not in by["europe"] and "stations" not in by["nordic"]
    # Nordic: Ida and Jon tie for the Globetrotter (3 tickets each); Ida wins (longer path): 1 game, its holder won.
    assert by["nordic"]["globetrotter"] == {"games": 1, "holder_won": 1, "rate": 1.0}
    assert "longest_path" not in by["nordic"]
    # Europe's players: Finn won (71, tie-break over Hana 71), Eva 69, Gus 59.
    europe = {r["player"]: r for r in by["europe"]["players"]}
    assert (europe["Finn"]["wins"], europe["Hana"]["wins"], europe["Gus"]["best"]) == (1, 0, 59)
    assert by["europe"]["highest_score"]["points"] == 71
    # Europe's Express went to Eva (40 trains), who lost: 1 game, 0 won.
    assert by["europe"]["longest_path"] == {"games": 1, "holder_won": 0, "rate": 0.0}
    # --board keeps that board's sessions only; other games are not on a board.
    assert statistics(summaries(*TTR, *BOOTH), board="nordic")["sessions"] == 1
    assert statistics(summaries(*BOOTH), board="none")["sessions"] == 0
    # With a player: only their stations.
    finn = statistics(summaries(*TTR), player="finn")["games"][0]["boards"][0]
    assert finn["stations"] == {"results": 1, "built": 1, "average_built": 1, "unused": 1, "unused_rate": 1.0,
                                "unused_points": 8}


def test_stats_by_board_and_start_player_in_plain_json_and_csv(tmp_path, capsys):
    import csv
    import io

    folder = tmp_path / "s"
    folder.mkdir()
    for name in TTR:
        shutil.copy(SAMPLES / name, folder / name)
    assert main(["stats", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "  By board: Europe — 1 play" in text and "  By board: no board — 3 plays" in text
    assert ("    Stations: 1.75 built on average (7 by 4 players); 2 of 4 players left stations unbuilt (50%), "
            "for 20 points at 4 each") in text
    assert "    Globetrotter: its holder won 1 of 1 game (100%)" in text
    assert "    European Express: its holder won 0 of 1 game (0%)" in text
    assert main(["stats", str(folder), "--board", "europe", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == 1 and data["filters"]["board"] == "europe"
    assert [b["board"] for b in data["games"][0]["boards"]] == ["europe"]
    assert main(["stats", str(folder), "--player", "HANA"]) == 0
    text = capsys.readouterr().out
    assert "  As start player (first in round 1): 2 plays, 1 win (50%)" in text
    assert main(["stats", str(folder), "--csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    # Hana: 3 plays, 1 win, 71 + 76 + 76 (74.33); started 2, won 1; on no board: 2 plays (76, 76), both started.
    assert ["ticket-to-ride", "", "Hana", "3", "1", "0.3333", "74.33", "76", "71", "1", "2", "1", "0.5"] in table
    assert ["ticket-to-ride", "none", "Hana", "2", "1", "0.5", "76", "76", "76", "1", "2", "1", "0.5"] in table
    assert ["ticket-to-ride", "europe", "Finn", "1", "1", "1.0", "71", "71", "71", "1", "0", "0", "0.0"] in table


def test_one_board_without_figures_of_its_own_is_not_repeated(tmp_path, capsys):
    # Only games without a board: the JSON still splits them (one board, "none"), the text does not repeat them.
    folder = tmp_path / "s"
    folder.mkdir()
    for name in ("ticket-to-ride-tie-shared.toml", "ticket-to-ride-4p.toml"):
        shutil.copy(SAMPLES / name, folder / name)
    assert main(["stats", str(folder)]) == 0
    assert "By board" not in capsys.readouterr().out
    assert main(["stats", str(folder), "--json"]) == 0
    assert [b["board"] for b in json.loads(capsys.readouterr().out)["games"][0]["boards"]] == ["none"]
    # One Europe game alone is shown: its stations are its own.
    shutil.copy(SAMPLES / "ticket-to-ride-europe-4p.toml", tmp_path / "e.toml")
    for p in folder.glob("*.toml"):
        p.unlink()
    shutil.copy(tmp_path / "e.toml", folder / "e.toml")
    assert main(["stats", str(folder)]) == 0
    assert "  By board: Europe — 1 play" in capsys.readouterr().out


def test_the_tickets_sentence_of_a_game_and_of_a_board() -> None:
    from scorekeeper.after import report
    from scorekeeper.after.stats_model import GameStats, Tickets

    tickets = Tickets(12, 3, 0.8)
    assert report.tickets_sentence(tickets) == "Tickets: 12 completed, 3 failed (80% completed)"
    board = GameStats("europe", "ticket-to-ride", "Europe", 1, (), None, None, 0, 0, tickets=tickets)
    assert report.board_lines(board)[0] == report.tickets_sentence(tickets)
