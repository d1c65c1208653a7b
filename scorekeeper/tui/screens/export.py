"""Export a session from the app: CSV, Markdown, JSON and text files in exports/, a BG Stats play as a QR code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from segno.encoder import DataOverflowError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from scorekeeper import files, games, store
from scorekeeper.after import export
from scorekeeper.games import GAMES, Sheet
from scorekeeper.model.text import inert
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.qr import BORDER, QRCode, svg

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase

CSS = Path(__file__).parent.parent / "after.tcss"

FILES = {"csv": ("CSV", "csv", "one row per player, round and category, with the points and why"),
         "md": ("Markdown", "md", "the score sheet with its tables, for a page that shows Markdown"),
         "json": ("JSON", "json", "the JSON of `scorekeeper score --json`"),
         "text": ("Text", "txt", "the result in plain text to paste in a group chat (copied to the clipboard too)")}
"""Each file format: its name, the file extension, what it holds."""


def scored(path: Path) -> Sheet | str:
    """The score sheet of a session file, or the first problem that keeps it from being read."""
    from scorekeeper.model.session import SessionError

    try:
        session, warnings = files.load(path)
        return games.score(session, warnings)
    except SessionError as exc:
        return exc.problems[0].describe() if exc.problems else str(exc)


def exports_dir(session_file: Path) -> Path:
    """Where the app writes exports: `exports/` beside the session file."""
    return session_file.parent / "exports"


def write_export(session_file: Path, sheet: Sheet, to: str) -> Path:
    """Write the session in a format to a new file in exports/, never over one (`NAME.csv`, then `NAME-2.csv`…:
    an older export stays as it was written); the path."""
    text = export.export([(sheet, session_file.name)], to, bom=to == "csv")  # a BOM as `export -o` writes
    return store.write_new(store.own_folder(exports_dir(session_file)), session_file.stem, f".{FILES[to][1]}", text)


class ExportScreen(Screen[None]):
    """A session in another format: files for a spreadsheet, a chat or a program; a BG Stats play for the phone."""

    CSS_PATH = CSS
    BINDINGS = [
        Binding("c", "write('csv')", "CSV", id="csv"),
        Binding("m", "write('md')", "Markdown", id="md"),
        Binding("j", "write('json')", "JSON", id="json"),
        Binding("t", "write('text')", "Text", id="text"),
        Binding("b", "bgstats", "BG Stats", id="bgstats"),
        Binding("y", "copy_link", "Copy link", id="copy-link"),
        Binding("f", "full_code", "Code alone", id="full-code"),
        Binding("escape", "back", "Back", id="back"),
    ]

    app: AppBase

    def __init__(self, path: Path, sheet: Sheet) -> None:
        super().__init__()
        self.path = Path(path)
        self.sheet = sheet
        self.link: str | None = None
        self.code_height: int | None = None
        self.drawn_fits = False
        self.code_columns = 0
        self.saved: Content | None = None
        self.written: dict[str, Path] = {}

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="export"):
            yield Static(Content.from_markup(
                "Files are written to [b]$folder[/b] (named after the session file, replaced on a new export).",
                folder=inert(str(exports_dir(self.path)))), classes="hint")
            options = [Option(Content.assemble((f"{key}  ", "bold $text-accent"), (name, "bold"), "  ",
                                               (what, "dim")), id=fmt)
                       for fmt, key, (name, _, what) in (("csv", "c", FILES["csv"]), ("md", "m", FILES["md"]),
                                                         ("json", "j", FILES["json"]), ("text", "t", FILES["text"]))]
            options.append(Option(Content.assemble(("b  ", "bold $text-accent"), ("BG Stats", "bold"), "  ",
                                                   ("a QR code to scan with the phone, and its link", "dim")),
                                  id="bgstats"))
            yield OptionList(*options, id="formats")
            yield Static(id="written")
            yield Vertical(id="qr-box")
        yield KeyBar()

    def on_mount(self) -> None:
        """Title the screen after the session."""
        session = self.sheet.session
        game = GAMES[session.game].name
        self.title = f"Export: {session.title}" if session.title else f"Export: {game}"
        self.sub_title = self.path.name
        self.query_one("#written", Static).display = False
        self.query_one("#formats", OptionList).focus()

    @on(OptionList.OptionSelected, "#formats")
    async def chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a format exports to it."""
        event.stop()
        if event.option.id == "bgstats":
            await self.action_bgstats()
        elif event.option.id:
            self.action_write(event.option.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Copy the link only once the BG Stats play is shown; the code alone only when there is a code."""
        if action == "copy_link":
            return self.link is not None
        if action == "full_code":
            return self.link is not None and self.code_height is not None
        return True

    def action_write(self, to: str) -> None:
        """Write the file and say where (or why not)."""
        written = self.query_one("#written", Static)
        written.display = True
        try:
            target = write_export(self.path, self.sheet, to)
        except OSError as exc:
            written.update(Content.styled(f"Could not write the {FILES[to][0]} file: {exc.strerror or exc}",
                                          "$text-error"))
            return
        self.written[to] = target
        written.update(Content.from_markup("[b $text-success]✓ $name written:[/] $path",
                                           name=FILES[to][0], path=inert(str(target))))
        if to == "text":  # for a group chat: on the clipboard, and shown as it will read
            text = target.read_text("utf-8")
            self.app.copy_to_clipboard(text)
            written.update(Content.from_markup("[b $text-success]✓ Text written:[/] $path — and copied to the "
                                               "clipboard (if the terminal allows it)\n\n", path=inert(str(target)))
                           + Content(inert(text.rstrip("\n"), newlines=True)))
        self.notify(inert(str(target)), title=f"{FILES[to][0]} written", markup=False)

    async def action_bgstats(self) -> None:
        """Show the BG Stats play as a QR code, drawn whole or not at all, and its link as text; save the code as
        a picture too. A link too long for any QR code says so (the link is still there to copy)."""
        self.link = link = export.bgstats_link(self.sheet, str(self.path))
        try:
            code = QRCode(link)
            self.code_height, self.code_columns = code.height, code.columns
        except DataOverflowError:
            self.code_height = None
        self.saved = self.save_picture(link) if self.code_height is not None else None
        await self.lay_out_code()
        self.refresh_bindings()
        box = self.query_one("#qr-box", Vertical)
        self.call_after_refresh(box.scroll_visible, top=True, animate=False)

    def save_picture(self, link: str) -> Content:
        """Save the code as an SVG picture in exports/; what to say about it."""
        picture = exports_dir(self.path) / f"{self.path.stem}-bgstats.svg"
        try:
            store.own_folder(picture.parent)
            store.write_atomic(picture, svg(link))
        except OSError as exc:
            return Content.styled(f"The code could not be saved as a picture: {exc.strerror or exc}", "$text-error")
        return Content.from_markup("The code is also saved as a picture: $path", path=str(picture))

    def code_fits(self) -> bool:
        """Whether the whole code fits the screen beside its title and key bars, and across (quadrants, two
        modules a character, where half blocks are too wide)."""
        across = self.query_one("#qr-box", Vertical).content_region.width or self.size.width - 4
        return (self.code_height is not None and self.code_height <= self.size.height - 2
                and (self.code_columns + 1) // 2 <= across)

    async def lay_out_code(self) -> None:
        """The code (when it fits whole, else why not and where to see it), the hints and the link."""
        link = self.link
        if link is None:
            return
        box = self.query_one("#qr-box", Vertical)
        await box.remove_children()
        self.drawn_fits = self.code_fits()
        parts: list[Widget] = []
        if self.code_height is None:
            parts.append(Static(Content.from_markup(
                "[b $text-warning]This play is too long for a QR code:[/] its link is $n characters (the player "
                "names), more than any code holds. y copies the link below, to send to the phone.",
                n=f"{len(link):,}"), classes="hint"))
        else:
            state = "" if self.sheet.complete else " (the game is not finished: the play holds the scores so far)"
            hint = Static(Content.from_markup("[b]BG Stats[/b]: scan the code with the phone's camera to log this "
                                              "play$state; f shows the code alone, y copies the link below.",
                                              state=state), classes="hint")
            if self.drawn_fits:
                parts += [QRCode(link, id="qr"), hint]
            else:  # a code cut in two scans as nothing: the whole screen, or the picture
                fits = (self.code_height - BORDER <= self.app.size.height
                        and (self.code_columns - 2 * BORDER + 1) // 2 <= self.app.size.width)
                how = ("f shows it alone, on the whole terminal." if fits else
                       "make the terminal larger (or its font smaller), or open the picture saved below.")
                if self.code_height <= self.size.height - 2:  # tall enough: too wide
                    said = Content.from_markup("[b $text-warning]The code is $n columns wide and the screen has "
                                               "$room:[/] $how", n=str((self.code_columns + 1) // 2),
                                               room=str(self.size.width), how=how)
                else:
                    said = Content.from_markup("[b $text-warning]The code is $n lines tall and the screen shows "
                                               "$room:[/] $how", n=str(self.code_height),
                                               room=str(self.size.height - 2), how=how)
                parts += [Static(said, classes="hint"), hint]
            if self.saved is not None:
                parts.append(Static(self.saved, classes="hint"))
        parts += [Static(Content(link), id="link"), Static(id="copied", classes="hint")]
        await box.mount_all(parts)

    async def on_resize(self) -> None:
        """A code that no longer fits whole goes (one that now fits comes back): never a part of a code."""
        if self.link is not None and self.code_fits() != self.drawn_fits:
            await self.lay_out_code()

    def action_full_code(self) -> None:
        """The QR code alone on the whole terminal (when it fits; else the screen says how to scan it)."""
        if self.link is None or self.code_height is None:
            return
        if (self.code_height - BORDER > self.app.size.height  # drawn there with the white screen as quiet zone
                or (self.code_columns - 2 * BORDER + 1) // 2 > self.app.size.width):
            self.query_one("#copied", Static).update(Content.styled(
                f"The code is {self.code_height - BORDER} lines tall and the terminal {self.app.size.height}: "
                "open the picture in exports/ instead.", "$text-warning"))
            return
        self.app.push_screen(CodeScreen(self.link))

    def action_copy_link(self) -> None:
        """Copy the BG Stats link to the clipboard (where the terminal allows it)."""
        if self.link:
            self.app.copy_to_clipboard(self.link)  # said under the link: a toast would cover it
            self.query_one("#copied", Static).update("The link is on the clipboard (if the terminal allows it).")

    def action_back(self) -> None:
        """Back to where the export was asked."""
        self.app.pop_screen()


class CodeScreen(Screen[None]):
    """The BG Stats QR code alone, in the middle of the whole terminal, for the phone's camera; Esc or f go back."""

    DEFAULT_CSS = """
    CodeScreen {
        align: center middle;
        background: #ffffff;
    }
    CodeScreen #too-small {
        color: #000000;
        width: auto;
    }
    """
    BINDINGS = [Binding("escape,f", "back", "Back", id="back")]

    def __init__(self, link: str) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        yield QRCode(self.link, border=0, id="qr")  # the screen's white ground is the quiet zone
        yield Static("The terminal is too small for the code now: make it taller, or Esc and open the picture.",
                     id="too-small")

    def on_mount(self) -> None:
        """Whole or nothing from the first frame."""
        self.on_resize()

    def on_resize(self) -> None:
        """The code whole, or in its place a line saying why not (never a part of it)."""
        code = self.query_one("#qr", QRCode)
        code.display = code.height <= self.size.height and (code.columns + 1) // 2 <= self.size.width
        self.query_one("#too-small", Static).display = not code.display

    def action_back(self) -> None:
        """Back to the export screen."""
        self.app.pop_screen()
