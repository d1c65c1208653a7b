"""Issue 22.1, through the screens: hostile text typed (`pilot.press`, or a fast burst) and pasted into every
editor of the app — the title-and-notes dialog, rename, seating, the New session form, the walkthrough's boxes
(numbers, card names, and the USA map's routes and tickets) — never saves a file that `scorekeeper check` refuses,
and a refusal (shown at its box) changes nothing on disk.

After every edit, every session file of the folder is read back as `check` reads it (the store's reader, then the
core's one `validate`) and must pass. The edits are generated from a seed (`ScreenEdits`, used by
`bench/faults.py --screens` too); the quick test runs a few per editor, the `slow` one many more.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from scorekeeper import files, store
from scorekeeper.games import validation
from scorekeeper.model.session import Round, Session
from scorekeeper.store import reading
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.dialogs import DetailsScreen, RenameScreen, SeatingScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.new_session import NewSessionScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_support import pilot_test, running, settle, write_session

PIECES = ("a", "Zoë", " ", "\t", "\x1b[31m", "\x1b]2;PWNED\x07", "\x07", "\x9b", "\x00", "\r", "\n", "\u202e",
          "\u200f", "\u2028", "[b]", "[/b]", "[red]x", "e\u0301", "\u0301", "🎲", "👩\u200d👩\u200d👧", "日本", "=1+1",
          "Denver", " - ", "kan", "8 ")
"""What hostile texts are made of: TAB, C0 and C1 controls, ESC/OSC sequences, bidi and RTL marks, a line
separator, markup, NFD and a lone combining mark, emoji (a ZWJ sequence too), wide characters, a formula."""
LONG = ("x" * 10_001, "T" * 201, "N" * 41, "n" * 10_000 + "\t")
"""Past the file's limits: 10,001 characters (notes: 10,000), 201 (a title, a card's name), 41 (a name)."""
FIXED = ("x" * 10_001, "a\tb", "\x1b[31mred", "[b]bold[/b]", "e\u0301t\u00e9", "\u200fRTL\u200e", "🎲 dice")
"""Each editor gets these first, then generated ones."""


USUAL = {"int": ("7", "12", "0", "45"), "counts": ("1", "2", "3"), "cards": ("8 Zoë 🎲", "-4 日本", "8 e\u0301", "5"),
         "map-routes": ("den - kan", "sea - por", "kan - sai"), "map-tickets": ("pit - den", "den - el", "-8")}
"""Values a table types, by the kind of the box."""


def hostile(rng: random.Random, short: bool = False) -> str:
    """A generated hostile text (short: for the walkthrough's boxes, typed key by key)."""
    if not short and rng.random() < 0.2:
        return rng.choice(LONG)
    if short and rng.random() < 0.15:
        return rng.choice(("y" * 201, "9" * 40, "8 " + "z" * 199 + "é"))
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


TYPED = 16
"""A text of more keys than this is pasted (nobody types 10,001 characters; a paste of them is one event), so
that the keys pressed one by one (`pilot.press`, about 0.1 s each on a loaded machine) keep the test bounded."""


def typeable(text: str, tab: bool = True) -> list[str]:
    """The keys a person types for a text: its printable characters, and Tab (a control cannot be typed; in a
    dialog, Tab moves to the next box: `tab=False` leaves it out)."""
    return [ch for ch in text if ch.isprintable() or tab and ch == "\t"]


def read_back(folder: Path) -> list[str]:
    """Every session file of the folder read as `check` reads it: what is refused (empty: all pass)."""
    refused = []
    for path in sorted(folder.glob("*.toml")):
        session, problems = files.parse(reading.read_text(path))
        errors = [p for p in problems if p.is_error]
        if session is not None:
            errors += [p for p in validation.validate(session) if p.is_error]
        if session is None or errors:
            refused.append(f"{path.name}: {[p.describe() for p in errors][:3]}")
    return refused


def snapshot(folder: Path) -> dict[str, bytes]:
    """The folder's session files, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.toml"))}


@dataclass
class Figures:
    """What the edits did: tried, saved (a file changed), refused at the box, unreadable files saved (must be 0),
    files changed by a refusal (must be 0)."""

    tried: int = 0
    saved: int = 0
    refused: int = 0
    unreadable_saved: int = 0
    changed_on_refusal: int = 0
    by_editor: dict[str, int] = field(default_factory=dict)
    faults: list[str] = field(default_factory=list)

    def shown(self) -> str:
        return (f"edits {self.tried}, saved {self.saved}, refused {self.refused}, unreadable saved "
                f"{self.unreadable_saved}, changed on refusal {self.changed_on_refusal}")


class ScreenEdits:
    """Hostile edits through the app's screens, each followed by reading every file back."""

    def __init__(self, rng: random.Random, figures: Figures) -> None:
        self.rng = rng
        self.figures = figures

    async def enter_text(self, pilot: Pilot, text: str, paste: bool, tab: bool = True) -> None:
        """Type the text into the focused box key by key, or paste it (a long one is always pasted)."""
        if paste or len(typeable(text, tab)) > TYPED:
            pilot.app.post_message(events.Paste(text))
        else:
            await pilot.press(*typeable(text, tab))
        await settle(pilot)

    def on_disk(self, path: Path) -> Session | None:
        """The session of a file as `check` reads it (None: refused)."""
        return files.parse(reading.read_text(path))[0]

    def listen(self, app: ScorekeeperApp) -> None:
        """Keep what the app says (a refusal by the save behind the boxes is a fault of the box)."""
        self.said: list[str] = []
        plain = app.notify

        def notify(message: str, *args: object, **kwargs: object) -> None:
            self.said.append(str(message))
            plain(message, *args, **kwargs)  # type: ignore[arg-type]

        app.notify = notify  # type: ignore[method-assign]

    def judge(self, editor: str, folder: Path, before: dict[str, bytes], refused: bool) -> None:
        """Count an edit: every file read back; a refusal left the files as they were; nothing reached the save
        that the box should have refused."""
        f = self.figures
        guarded = [m for m in getattr(self, "said", []) if "would not read back" in m]
        if guarded:
            f.faults.append(f"{editor}: refused by the save, not at the box: {guarded[0][:120]}")
            self.said.clear()
        f.tried += 1
        f.by_editor[editor] = f.by_editor.get(editor, 0) + 1
        after = snapshot(folder)
        bad = read_back(folder)
        if refused:
            f.refused += 1
            if after != before:
                f.changed_on_refusal += 1
                f.faults.append(f"{editor}: a refusal changed the folder")
        elif after != before:
            f.saved += 1
        if bad:
            f.unreadable_saved += len(bad)
            f.faults.append(f"{editor}: {bad}")

    # -- the standings' dialogs ----------------------------------------------------------
    async def details(self, app: ScorekeeperApp, pilot: Pilot, folder: Path, text: str, notes: bool,
                      paste: bool) -> None:
        """`t`: the title (or the notes) replaced by the text; ctrl+s."""
        before = snapshot(folder)
        await pilot.press("t")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DetailsScreen)
        if notes:
            await pilot.press("tab", "ctrl+a", "backspace")
        else:
            await pilot.press("end", "ctrl+u")
        await settle(pilot)
        await self.enter_text(pilot, text, paste, tab=False)
        held = (dialog.query_one("#title-input", Input).value.strip() or None,
                dialog.query_one("#notes-input", TextArea).text.rstrip() or None)
        await pilot.press("ctrl+s")
        await settle(pilot)
        refused = app.screen is dialog
        if refused:
            shown = str(dialog.query_one("#details-problem" if notes else "#title-problem", Static).render())
            shown += str(dialog.query_one("#title-problem" if notes else "#details-problem", Static).render())
            if "✗" not in shown:
                self.figures.faults.append(f"details: refused without a word under the box ({text[:40]!r})")
            await pilot.press("escape")
            await settle(pilot)
        else:
            saved = self.on_disk(path_of(app))
            if saved is None or (saved.title, saved.notes) != held:
                self.figures.faults.append(f"details: taken at the box, not saved as typed ({text[:40]!r})")
        self.judge("notes" if notes else "title", folder, before, refused)

    async def rename(self, app: ScorekeeperApp, pilot: Pilot, folder: Path, text: str, paste: bool) -> None:
        """`r`: the first player's name replaced by the text; Enter."""
        before = snapshot(folder)
        await pilot.press("r")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RenameScreen)
        await pilot.press("end", "ctrl+u")
        await self.enter_text(pilot, text.replace("\n", " "), paste, tab=False)
        new = dialog.query_one("#new-name", Input).value.strip()
        await pilot.press("enter")
        await settle(pilot)
        refused = app.screen is dialog
        if refused:
            if "✗" not in str(dialog.query_one("#rename-problem", Static).render()):
                self.figures.faults.append(f"rename: refused without a word under the box ({text[:40]!r})")
            await pilot.press("escape")
            await settle(pilot)
        else:
            saved = self.on_disk(path_of(app))
            if saved is None or saved.players[0] != new:
                self.figures.faults.append(f"rename: taken at the box, not saved as typed ({text[:40]!r})")
        self.judge("rename", folder, before, refused)

    async def seating(self, app: ScorekeeperApp, pilot: Pilot, folder: Path) -> None:
        """`s`: a random reseating; Enter."""
        before = snapshot(folder)
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SeatingScreen)
        await pilot.press(*(self.rng.choice(("up", "down", "shift+up", "shift+down")) for _ in range(4)), "enter")
        await settle(pilot)
        refused = app.screen is dialog
        if refused:
            await pilot.press("escape")
            await settle(pilot)
        self.judge("seating", folder, before, refused)

    async def dialogs(self, folder: Path, n: int) -> None:
        """n edits through the title-and-notes dialog, rename and seating of one unscored session."""
        path = write_session(folder, "ticket-to-mars", ["Ana", "Bo", "Cy"], name="dialogs.toml")
        async with running(folder, path) as (app, pilot):
            self.listen(app)
            if not isinstance(app.screen, StandingsScreen):
                await pilot.press("escape")
                await settle(pilot)
            assert isinstance(app.screen, StandingsScreen)
            texts = [*FIXED, *(hostile(self.rng) for _ in range(n))]
            for i in range(n):
                kind = ("title", "notes", "rename", "seating")[i % 4]
                text = texts.pop(0) if kind != "seating" else ""
                paste = i % 8 >= 4 or not text.isprintable() and self.rng.random() < 0.7
                if kind == "title":
                    await self.details(app, pilot, folder, text, False, paste)
                elif kind == "notes":
                    await self.details(app, pilot, folder, text, True, paste)
                elif kind == "rename":
                    await self.rename(app, pilot, folder, text, paste)
                else:
                    await self.seating(app, pilot, folder)
                assert isinstance(app.screen, StandingsScreen) and app.return_code is None

    # -- the New session form ------------------------------------------------------------
    async def new_sessions(self, folder: Path, n: int) -> None:
        """n New session forms filled with a hostile first player and title; ctrl+s."""
        async with running(folder) as (app, pilot):
            self.listen(app)
            for i in range(n):
                assert isinstance(app.screen, HomeScreen)
                before = snapshot(folder)
                await pilot.press("ctrl+n")
                await settle(pilot)
                form = app.screen
                assert isinstance(form, NewSessionScreen)
                await pilot.press("enter")  # the game: on to the first player
                name, title = hostile(self.rng), hostile(self.rng)
                paste = i % 2 == 0
                await self.enter_text(pilot, name.replace("\n", " "), paste, tab=False)
                form.query_one("#player-2", Input).focus()
                await pilot.press(*"Bo")
                form.query_one("#title", Input).focus()
                await self.enter_text(pilot, title.replace("\n", " "), paste, tab=False)
                held = (form.query_one("#player-1", Input).value.strip(),
                        form.query_one("#title", Input).value.strip() or None)
                await pilot.press("ctrl+s")
                await settle(pilot)
                refused = app.screen is form
                if refused:
                    await pilot.press("escape")
                    await settle(pilot)
                    await pilot.press("y")
                    await settle(pilot)
                else:
                    new = [self.on_disk(folder / n) for n in set(snapshot(folder)) - set(before)]
                    if len(new) != 1 or new[0] is None or (new[0].players[0], new[0].title) != held:
                        self.figures.faults.append(f"new session: taken, not saved as typed ({held!r})")
                self.judge("new session", folder, before, refused)
                while not isinstance(app.screen, HomeScreen):
                    await pilot.press("escape")
                    await settle(pilot)

    # -- the walkthrough's boxes ---------------------------------------------------------
    async def grid(self, folder: Path, n: int, rules: dict[str, str] | None = None) -> None:
        """n hostile values typed or pasted into the boxes of Ticket to Ride's steps (on the USA map with
        `rules`), each then confirmed with Enter; the document on disk is always what the screen took."""
        name = "map.toml" if rules else "grid.toml"
        path = write_session(folder, "ticket-to-ride", ["Ana", "Bo"], name=name, rules=rules)
        async with running(folder, path) as (app, pilot):
            self.listen(app)
            screen = app.screen
            assert isinstance(screen, WalkthroughScreen)
            steps, slots = screen.state.steps, screen.state.inputs
            editable = [i for i, inputs in enumerate(slots) if inputs]  # a step worked out from the map has none
            for i in range(n):
                before = snapshot(folder)
                step = editable[i % len(editable)]
                for _ in range(len(steps)):
                    if screen.state.index == step:
                        break
                    await pilot.press("pagedown" if screen.state.index < step else "pageup")
                    await settle(pilot)
                assert app.screen is screen and screen.state.index == step
                kind = slots[step][0].kind
                if kind not in ("int", "counts") and i < 2 * len(editable):  # past the limits, pasted, first
                    text = ("8 " + "z" * 201, "9" * 40)[i // len(editable)]
                elif self.rng.random() < 0.4:  # what a table types: the saves among the refusals
                    text = self.rng.choice(USUAL.get(kind, ("7",)))
                else:
                    text = hostile(self.rng, short=True)
                    if kind not in ("int", "counts") and self.rng.random() < 0.6:
                        text = self.rng.choice(("8 ", "-4 ", "den - ")) + text
                paste = i % 2 == 1
                await self.enter_text(pilot, text, paste)
                await pilot.press("enter")
                await settle(pilot)
                refused = bool(screen.state.rejected)
                assert app.doc is not None
                if self.on_disk(path) != app.doc.session or screen.session != app.doc.session:
                    self.figures.faults.append(f"grid: the screen took what the file did not ({text[:40]!r})")
                # typed key by key, what the file takes of a value is saved as it is typed: a refusal is judged
                # on the value refused (never on disk), the prefixes before it were each a save of their own
                self.judge("map" if rules else "grid", folder, snapshot(folder) if refused else before, refused)
                if refused:  # to another step and back: the boxes show the session again, the refused text gone
                    await pilot.press("pageup" if screen.state.index else "pagedown")
                    await settle(pilot)


def shown(screen: WalkthroughScreen, player: str) -> str:
    """A player's rows as drawn, lines joined (a message may wrap)."""
    return " ".join(screen.row_text(player).split())


def path_of(app: ScorekeeperApp) -> Path:
    """The file of the session open in the app."""
    assert app.doc is not None
    return app.doc.path


def assert_clean(figures: Figures) -> None:
    assert figures.faults == [], figures.faults[:5]
    assert figures.unreadable_saved == 0 and figures.changed_on_refusal == 0
    assert figures.saved and figures.refused, figures.shown()


@pilot_test
async def test_hostile_edits_through_the_dialogs_read_back(tmp_path: Path) -> None:
    figures = Figures()
    await ScreenEdits(random.Random(22), figures).dialogs(tmp_path, 8)
    assert_clean(figures)
    assert set(figures.by_editor) == {"title", "notes", "rename", "seating"}


@pilot_test
async def test_hostile_new_sessions_read_back(tmp_path: Path) -> None:
    figures = Figures()
    await ScreenEdits(random.Random(23), figures).new_sessions(tmp_path, 3)
    assert figures.faults == [] and figures.unreadable_saved == 0 and figures.changed_on_refusal == 0
    assert figures.tried == 3


@pilot_test
async def test_hostile_values_in_the_walkthrough_read_back(tmp_path: Path) -> None:
    figures = Figures()
    edits = ScreenEdits(random.Random(24), figures)
    await edits.grid(tmp_path, 8)
    await edits.grid(tmp_path, 8, {"map": "usa"})
    assert_clean(figures)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_hostile_edits_through_every_screen(tmp_path: Path, seed: int) -> None:
    @pilot_test
    async def run() -> None:
        figures = Figures()
        edits = ScreenEdits(random.Random(seed), figures)
        await edits.dialogs(tmp_path / "d", 60)
        await edits.new_sessions(tmp_path / "n", 12)
        await edits.grid(tmp_path / "g", 40)
        await edits.grid(tmp_path / "m", 40, {"map": "usa"})
        assert_clean(figures)

    run()


# -- the refusals, each where it was typed ----------------------------------------------------
@pilot_test
async def test_a_card_name_past_the_limit_is_refused_at_its_line_and_kept_to_correct(tmp_path: Path) -> None:
    """Ticket to Ride's tickets: `8 ` and a 201-character name is refused at its line (the core's message, "not
    saved"), the text stays in the box; one character less is saved."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await pilot.press("pagedown")
        await settle(pilot)
        assert screen.step.title == "Destination tickets"
        app.post_message(events.Paste("8 " + "n" * 201))
        await settle(pilot)
        lines = screen.editors[(0, 0)]
        assert lines.rows[0].text == "8 " + "n" * 201
        assert screen.state.rejected
        assert "not saved: 201 characters in the card's name; at most 200" in shown(screen, "Ana")
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert not screen.state.rejected
    session, _ = files.load(path)
    assert session.rounds[0].players["Ana"]["tickets"] == [{"points": 8, "completed": True, "name": "n" * 200}]


@pilot_test
async def test_rename_refuses_at_the_box_what_validate_refuses(tmp_path: Path) -> None:
    """The rename dialog asks the whole `validate` of the session renamed: a pasted TAB or a name over 40 is
    refused under the box, the file unchanged."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=())
    async with running(tmp_path, path) as (app, pilot):
        while not isinstance(app.screen, StandingsScreen):
            await pilot.press("escape")
            await settle(pilot)
        before = path.read_bytes()
        await pilot.press("r")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RenameScreen)
        await pilot.press("end", "ctrl+u")
        app.post_message(events.Paste("An\ta"))
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog and path.read_bytes() == before
        assert "control character" in str(dialog.query_one("#rename-problem", Static).render())
        await pilot.press("end", "ctrl+u", *"Ána")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, StandingsScreen)
    assert files.load(path)[0].players == ("Ána", "Bo")


@pilot_test
async def test_notes_of_10001_characters_pasted_are_refused_under_the_notes(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=())
    async with running(tmp_path, path) as (app, pilot):
        while not isinstance(app.screen, StandingsScreen):
            await pilot.press("escape")
            await settle(pilot)
        before = path.read_bytes()
        await pilot.press("t", "tab")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DetailsScreen) and isinstance(dialog.focused, TextArea)
        app.post_message(events.Paste("x" * 10_001))
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog and path.read_bytes() == before
        assert "at most 10,000" in str(dialog.query_one("#details-problem", Static).render())


def test_the_seating_dialog_is_given_the_session() -> None:
    """The seating dialog checks the session reseated (validate), so it is built from the session."""
    session = Session(game="ticket-to-mars", players=("Ana", "Bo"), rounds=(Round(),))
    dialog = SeatingScreen(session)
    assert dialog.order == ["Ana", "Bo"] and dialog.problems() == []
    dialog.order = ["Bo", "Bo"]
    assert dialog.problems()


@pilot_test
async def test_a_number_of_more_digits_than_a_file_holds_is_refused_at_its_box(tmp_path: Path) -> None:
    """40 nines pasted as a destination ticket (on the USA map too, where a ticket may be given by its points): the
    store's reader takes 32 digits at most, so the box refuses the value (it was saved, and the file then refused
    by `check`); 32 digits are a number like any."""
    for rules in (None, {"map": "usa"}):
        path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules=rules)
        async with running(tmp_path, path) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, WalkthroughScreen)
            await pilot.press("pagedown")
            await settle(pilot)
            assert screen.step.title == "Destination tickets"
            app.post_message(events.Paste("9" * 40))
            await settle(pilot)
            assert "a number of 40 digits; numbers have at most 32" in shown(screen, "Ana")
            await pilot.press("enter")
            await settle(pilot)
            assert screen.state.rejected and screen.spots[screen.at].player == 0
        # typed in key by key, the value is saved as long as the file takes it: 32 nines, not 33
        assert read_back(tmp_path) == []
        assert files.load(path)[0].rounds[0].players["Ana"]["tickets"] == [{"points": int("9" * 32),
                                                                             "completed": True}]


def test_the_numbers_limit_is_the_readers() -> None:
    from scorekeeper.games import fields

    assert fields.MAX_DIGITS == reading.MAX_DIGITS
    big = Session(game="ticket-to-ride", players=("Ana", "Bo"),
                  rounds=(Round(players={"Ana": {"longest_path": 10 ** 32}}),))
    [error] = [p for p in validation.validate(big) if "digits" in p.message]
    assert (error.round, error.player, error.field) == (1, "Ana", "longest_path")
    assert files.parse(store.dumps(big))[0] is None  # what validate refuses, the reader refuses
    fine = Session(game="ticket-to-ride", players=("Ana", "Bo"),
                   rounds=(Round(players={"Ana": {"route_points": 10 ** 32 - 1}}),))
    assert not [p for p in validation.validate(fine) if "digits" in p.message]
