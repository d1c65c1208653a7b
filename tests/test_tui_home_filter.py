"""The home screen's filter, key by key: typing further narrows the list, deleting widens it again, and the list
keeps its scroll bar exactly while the rows overflow it."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from scorekeeper.tui.screens.home import HomeScreen, narrower
from scorekeeper.tui.screens.listing import Entry, SessionList
from tests.test_tui_support import burst, pilot_test, running, write_session

PLAYERS = [["Ana", "Bo"], ["Sam", "Nora"], ["Samir", "Ana"], ["Bo", "Cy"]]


def folder_of(folder: Path, count: int) -> None:
    """`count` sessions, players taken in turn from PLAYERS, written a while ago (the index trusts them)."""
    for i in range(count):
        write_session(folder, "ticket-booth", PLAYERS[i % len(PLAYERS)], name=f"s{i:02d}.toml", title=f"Night {i}",
                      aged=i)


def expected(home: HomeScreen, text: str) -> list[str]:
    """The files the filter `text` passes, read from the whole list afresh."""
    words = text.casefold().split()
    return [e.path.name for e in home.entries if all(w in e.search for w in words)]


def test_a_filter_is_narrower_only_when_every_word_before_is_inside_a_word_now() -> None:
    entries: list[Entry] = []
    assert narrower((entries, ["sa"]), entries, ["sam"])
    assert narrower((entries, ["sam"]), entries, ["sam", "ana"])
    assert narrower((entries, []), entries, ["a"])
    assert not narrower((entries, ["sam"]), entries, ["sa"])
    assert not narrower((entries, ["sam", "ana"]), entries, ["sam"])
    assert not narrower((entries, ["sa"]), [], ["sam"])  # the list was read again
    assert not narrower(None, entries, ["sam"])


@pilot_test
async def test_each_key_narrows_or_widens_the_list_and_the_scroll_bar_follows(tmp_path: Path) -> None:
    count = 24  # 24 rows of 3 lines overflow the list at 120x40
    folder_of(tmp_path, count)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        box = home.query_one("#filter", Input)
        listing = home.query_one("#sessions", SessionList)
        assert listing.show_vertical_scrollbar
        sizes = set()
        current = home.current()
        for keys, text in (("a", "a"), ("n", "an"), ("⌫", "a"), (" ", "a "), ("s", "a s"), ("a", "a sa"),
                           ("m", "a sam"), ("i", "a sami"), ("⌫", "a sam"), ("⌫⌫⌫", "a "), ("⌫⌫", ""),
                           ("sami", "sami"), ("r", "samir"), ("⎋", "")):
            await burst(pilot, keys)
            assert box.value == text
            files = expected(home, text)
            assert [e.path.name for e in home.shown] == files, text
            assert listing.virtual_size.height == len(files) * SessionList.ROW - 1
            overflow = listing.virtual_size.height > listing.container_size.height
            assert listing.show_vertical_scrollbar == overflow, text
            paths = [e.path for e in home.shown]  # the highlighted session stays highlighted while it passes
            assert listing.highlighted == (paths.index(current.path) if current and current.path in paths else 0)
            current = home.current()
            assert listing.scroll_y <= listing.max_scroll_y
            sizes.add((len(files), overflow))
        assert {overflow for _, overflow in sizes} == {True, False} and len(sizes) >= 3  # the cases are real
        await burst(pilot, "↓↓↓")
        kept = home.current()
        assert kept is not None
        await burst(pilot, "b")  # the highlighted session still passes: it stays highlighted
        assert "b" in kept.search and home.current() is kept
