"""The table's side of seats in the app: the host asked to let a phone take a held seat, a phone joining as one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import ModalScreen

from scorekeeper.model.text import inert


def ask_host(app: App[Any], path: Path, asked: set[tuple[str, str]]) -> None:
    """The host: a phone asks for a seat another phone holds: "let it?" (the answer goes to the registry; `asked`:
    the (seat, phone) asks put to the host already)."""
    import time

    from scorekeeper.web import seats

    for player, seat in seats.asks(seats.load(path), time.time()):
        assert seat.asker is not None
        if (player, seat.asker) in asked or isinstance(app.screen, ModalScreen):
            continue
        asked.add((player, seat.asker))
        from textual.content import Content

        from scorekeeper.tui.screens.dialogs import ConfirmScreen

        question = Content.from_markup("A phone asks for [b]$player[/b]'s seat, which another phone holds. "
                                       "Let it take the seat?", player=inert(player))

        def answer(yes: bool | None, player: str = player) -> None:
            try:
                seats.update(path, lambda s: (seats.answer(s, player, bool(yes), time.time()), None))
            except OSError as exc:
                app.notify(f"The seat could not be given: {inert(exc.strerror or str(exc))}", markup=False)

        app.push_screen(ConfirmScreen(question, yes="Let it", no="Keep"), answer)


def join(app: App[Any], path: Path, players: tuple[str, ...]) -> None:
    """In a browser: this phone joins a session of the folder as one player's seat (its link then opens that seat
    only, `serve` signs it)."""
    import time
    from urllib.parse import quote

    from scorekeeper.tui.screens.seat import JoinScreen
    from scorekeeper.web import seats

    now = time.time()
    held = {p: s.since for p, s in seats.load(path).items() if s.fresh(now)}

    def joined(player: str | None) -> None:
        if player is not None:
            app.open_url(f"join?file={quote(path.name)}&seat={quote(player)}", new_tab=False)

    app.push_screen(JoinScreen(players, held), joined)
