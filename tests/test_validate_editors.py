"""Issue 22.1 and 25.3: every editor accepts only what the file format accepts, and a save never writes a file
that `check` (files.parse, the reader) refuses; the dialogs' first box has the keyboard, Tab never sends typing
to a button, and a filled New session form asks before it is thrown away."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Button, Input, Static, TextArea

from scorekeeper import files
from scorekeeper.model.session import Round, Session
from scorekeeper.tui.screens.dialogs import ConfirmScreen, DetailsScreen, RenameScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.new_session import NewSessionScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.walk.document import Document, Refused
from tests.test_tui_support import burst, pilot_test, running, type_text, write_session

MARS_DONE = Round(players={"Ana": {"pairs": {"count": 1, "each": 3}, "character": {"count": 1, "each": 1}},
                           "Bo": {"pairs": {"count": 1, "each": 2}, "occupancy": {"count": 1, "each": 1}}})

HOSTILE = ["a\tb", "tab\tpasted\there", "\x1b[31mred", "bell\x07", "cr\rlf", "nul\x00", "c1\x9b", "bidi\u202e",
           "x" * 201, "[bold]loud[/bold]", "[red]", "Zoë ✓ 日本", "  spaced  ", ""]
"""Hand-picked strings each editor is given besides what hypothesis generates."""


def reads_back(path: Path) -> Session:
    """The file read with the reader `check` uses: a session, never a refusal."""
    session, problems = files.parse(path.read_text(encoding="utf-8"))
    assert session is not None, [p.describe() for p in problems]
    return session


# -- the save guard -----------------------------------------------------------------------
hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=60),
                         st.text(alphabet=st.characters(codec="utf-8"), min_size=190, max_size=260))


def edits() -> st.SearchStrategy[tuple[str, str]]:
    """An edit through one of the app's editors: which one, and the text typed into it."""
    return st.tuples(st.sampled_from(["title", "notes", "long notes", "rename", "ticket name", "seating"]),
                     hostile_text)


def edited(session: Session, editor: str, text: str) -> Session:
    """The session after the editor took that text, as the editor hands it to the Document."""
    if editor == "title":
        return replace(session, title=text.strip() or None)
    if editor == "notes":
        return replace(session, notes=text.rstrip() or None)
    if editor == "long notes":
        return replace(session, notes="n" * 9_990 + text)
    if editor == "rename":
        return session.with_player_renamed(session.players[0], text.strip() or "Ana")
    if editor == "ticket name":
        return session.with_value(1, session.players[0], "tickets",
                                  [{"points": 8, "completed": True, "name": text}])
    return replace(session, players=(text.strip() or "Ana", *session.players[1:]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(edits(), min_size=1, max_size=6))
def test_every_saved_file_reads_back(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str]]) -> None:
    """Edits of every editor's kind with hostile text: each save either writes a file the reader accepts (and
    that holds the edit) or is refused with the file left byte for byte as it was."""
    folder = tmp_path_factory.mktemp("edits")
    path = write_session(folder, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(),))
    doc = Document.open(path)
    for editor, text in steps:
        before = path.read_bytes()
        try:
            session = edited(doc.session, editor, text)
        except ValueError:  # the model itself refuses it (a renamed player clashing): nothing to save
            continue
        try:
            doc.commit(session)
        except Refused as refused:
            assert refused.problems and path.read_bytes() == before
            assert doc.session != session
            continue
        assert reads_back(path) == session == doc.session


def test_the_document_refuses_to_write_what_it_cannot_read(tmp_path: Path) -> None:
    """A TAB in the notes, 10,001 characters of notes, a 201-character title: refused, the file kept as it was."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    doc = Document.open(path)
    before = path.read_bytes()
    for bad in (replace(doc.session, notes="a\tb"), replace(doc.session, notes="x" * 10_001),
                replace(doc.session, title="t" * 201)):
        with pytest.raises(Refused, match="would not read back"):
            doc.commit(bad)
        assert path.read_bytes() == before and doc.session != bad and not doc.unsaved
    reads_back(path)


# -- the title-and-notes dialog -----------------------------------------------------------
@pilot_test
async def test_details_refuses_a_pasted_tab_inline_and_saves_nothing(tmp_path: Path) -> None:
    """t: the title box has the keyboard; a TAB pasted into the notes is refused under the notes, the dialog
    stays open and the file is unchanged; the app goes on (no traceback), and the file passes check."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    before = path.read_bytes()
    async with running(tmp_path, path) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "t")
        dialog = app.screen
        assert isinstance(dialog, DetailsScreen)
        assert dialog.focused is dialog.query_one("#title-input", Input)
        await type_text(pilot, "Mars night")
        await burst(pilot, "enter")
        notes = dialog.query_one("#notes-input", TextArea)
        assert dialog.focused is notes
        notes.insert("col1\tcol2")  # as a paste lands in the box
        await pilot.pause()
        await burst(pilot, "ctrl+s")
        assert app.screen is dialog
        assert "control character" in str(dialog.query_one("#details-problem", Static).render())
        assert path.read_bytes() == before
        notes.clear()
        await type_text(pilot, "fine notes")
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, StandingsScreen)
    session = reads_back(path)
    assert session.title == "Mars night" and session.notes == "fine notes"


@pilot_test
async def test_details_refuses_a_long_title_and_long_notes(tmp_path: Path) -> None:
    """A 201-character title is refused under the title as it is typed; 10,001 characters of notes under the
    notes; nothing is saved until both are within the limits."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    before = path.read_bytes()
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "t")
        dialog = app.screen
        assert isinstance(dialog, DetailsScreen)
        await type_text(pilot, "T" * 201)
        assert "at most 200" in str(dialog.query_one("#title-problem", Static).render())
        dialog.query_one("#notes-input", TextArea).insert("n" * 10_001)
        await pilot.pause()
        await burst(pilot, "ctrl+s")
        assert app.screen is dialog and path.read_bytes() == before
        assert "at most 10,000" in str(dialog.query_one("#details-problem", Static).render())
        await burst(pilot, "backspace")
        assert str(dialog.query_one("#title-problem", Static).render()).strip() == ""
        await burst(pilot, "tab", "ctrl+a", "backspace")  # Tab: to the notes; select all and delete
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, StandingsScreen)
    assert reads_back(path).title == "T" * 200


@pilot_test
async def test_tab_cycles_between_the_dialog_boxes(tmp_path: Path) -> None:
    """Tab and shift+Tab in the title-and-notes and the rename dialogs stay in their boxes: what is typed after
    them always lands in a box, never on a button."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "t")
        dialog = app.screen
        title, notes = dialog.query_one("#title-input", Input), dialog.query_one("#notes-input", TextArea)
        await burst(pilot, "tab")
        assert dialog.focused is notes
        await burst(pilot, "tab")
        assert dialog.focused is title
        await burst(pilot, "shift+tab")
        assert dialog.focused is notes
        await type_text(pilot, "kept")
        assert notes.text == "kept"
        await burst(pilot, "escape", "r")
        rename = app.screen
        assert isinstance(rename, RenameScreen)
        for _ in range(4):
            await burst(pilot, "tab")
            assert not isinstance(rename.focused, Button)
        for _ in range(4):
            await burst(pilot, "shift+tab")
            assert not isinstance(rename.focused, Button)


@pilot_test
async def test_rename_refuses_hostile_names_inline(tmp_path: Path) -> None:
    """r: a name over 40 characters or one in markup-like brackets: refused (or kept as plain text), never a
    file check refuses."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    before = path.read_bytes()
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "r")
        dialog = app.screen
        assert isinstance(dialog, RenameScreen)
        await burst(pilot, "end", "ctrl+u")  # the name box emptied, as a person clears it
        await type_text(pilot, "N" * 41)
        await burst(pilot, "enter")
        assert app.screen is dialog and path.read_bytes() == before
        assert "at most 40" in str(dialog.query_one("#rename-problem", Static).render())
        await burst(pilot, "end", "ctrl+u")
        await type_text(pilot, "[bold]Ana")
        await burst(pilot, "enter")
        assert isinstance(app.screen, StandingsScreen)
    assert reads_back(path).players == ("[bold]Ana", "Bo")


# -- the New session form -----------------------------------------------------------------
@pilot_test
async def test_escape_on_a_filled_new_session_form_asks(tmp_path: Path) -> None:
    """Esc on a form with a name typed asks; Esc again (the default) keeps the form as typed; y leaves it. An
    empty form leaves at once."""
    write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], name="old.toml")
    async with running(tmp_path) as (app, pilot):
        assert isinstance(app.screen, HomeScreen)
        await burst(pilot, "ctrl+n")
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
        await burst(pilot, "ctrl+n")
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        await burst(pilot, "enter")  # the game picked: on to the first player
        await type_text(pilot, "Ana")
        await burst(pilot, "escape")
        assert isinstance(app.screen, ConfirmScreen)
        await burst(pilot, "escape")
        assert app.screen is form and form.query_one("#player-1", Input).value == "Ana"
        await burst(pilot, "escape", "y")
        assert isinstance(app.screen, HomeScreen)
    assert sorted(p.name for p in tmp_path.glob("*.toml")) == ["old.toml"]


@pilot_test
async def test_new_session_refuses_a_long_title_at_the_title(tmp_path: Path) -> None:
    """A 201-character title in the New session form is refused under the title; no file is written."""
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n")
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        form.query_one("#player-1", Input).value = "Ana"
        form.query_one("#player-2", Input).value = "Bo"
        form.query_one("#title", Input).focus()
        await type_text(pilot, "T" * 201)
        assert "at most 200" in str(form.query_one("#title-problem", Static).render())
        await burst(pilot, "ctrl+s")
        assert app.screen is form
    assert not list(tmp_path.glob("*.toml"))
