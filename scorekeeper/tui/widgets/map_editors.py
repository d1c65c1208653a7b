"""Editors of a round on a map: claimed routes and destination tickets, one per line, named by their two cities.

Each line is read by the map (`den - kan` -> `Denver – Kansas City`); Tab completes the city at the cursor
(again: the next candidate). The core checks the list; its problems show at their lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.content import Content

from scorekeeper.games.base import Item
from scorekeeper.model.text import inert
from scorekeeper.tui.widgets.editors import NOT_READY, Buffer, Did
from scorekeeper.tui.widgets.line_editors import CardLines
from scorekeeper.walk import mapmode, parse_card

if TYPE_CHECKING:
    from scorekeeper.maps import GameMap

SHOWN = 4
"""How many completions a line's note lists."""


class PairLines(CardLines):
    """A player's claimed routes (or tickets) on a map, one per line; the map reads each line."""

    kind = mapmode.ROUTE
    example = 0

    @property
    def game_map(self) -> GameMap:
        """The session's map."""
        return self.context  # type: ignore[no-any-return]

    @property
    def placeholder(self) -> str:  # type: ignore[override]
        """The empty line's example, on this board (`GameMap.empty_line`, then `  (Tab completes)`)."""
        return self.game_map.empty_line(self.example) + "  (Tab completes)"

    def line_text(self, item: Any) -> str:
        """An item of the value as a line."""
        return str(item)

    def item_of(self, text: str) -> Any:
        """The canonical name when the map reads the line, else the text (for the core to refuse)."""
        if not text.strip():
            return None
        found = mapmode.resolve(self.game_map, text, self.kind)
        return found.name if found.name is not None else text.strip()

    def readable(self, text: str) -> bool:
        """Whether the map reads a line."""
        return mapmode.resolve(self.game_map, text, self.kind).name is not None

    def value(self) -> Any:
        """The lines as saved; NOT_READY while a line cannot be read (Enter asks the core why: `raw`)."""
        if any(not self.readable(r.text) for r in self.rows if r.text.strip()):
            return NOT_READY
        return self.raw()

    def raw(self) -> Any:
        """The lines as they are, read or not."""
        return [self.item_of(r.text) for r in self.rows if r.text.strip()]

    def canonical(self, text: str) -> str:
        """The line as the map names it."""
        found = mapmode.resolve(self.game_map, text, self.kind)
        return found.name if found.name is not None else text

    def enter(self) -> Did | None:
        """A line the map cannot read stays (the core says why at it); else as any list."""
        row = self.rows[self.at]
        if row.text.strip() and not self.readable(row.text):
            return Did.REFUSE
        return super().enter()

    def candidates(self, text: str, cursor: int) -> list[str]:
        """The cities the name at the cursor may be completed to; a whole double route whose tracks differ in
        length: its tracks (`Kristiansand – Stavanger (2)`, `(3)`)."""
        frag, found = mapmode.candidates(self.game_map, text, cursor, self.kind)
        if not text.strip() or (len(found) == 1 and found[0] == frag.typed):
            tracks = mapmode.resolve(self.game_map, text, self.kind)
            return list(tracks.suggestions) if tracks.name is None and tracks.a and tracks.suggestions else []
        return self.ordered(frag, found)

    def ordered(self, frag: mapmode.Fragment, found: list[str]) -> list[str]:
        """On the second city, those whose route (or ticket) another line of the list already names come last."""
        if not frag.second_side or not frag.first or len(found) < 2:
            return found
        from scorekeeper.maps import MapNameError

        try:
            first = self.game_map.city(frag.first)
        except MapNameError:
            return found
        listed = set()
        for i, row in enumerate(self.rows):
            if i != self.at and row.text.strip():
                named = mapmode.resolve(self.game_map, row.text, self.kind)
                listed.add(frozenset((named.a, named.b)))
        return sorted(found, key=lambda city: frozenset((first, city)) in listed)

    def completed(self, text: str, cursor: int, name: str) -> str | None:
        """The line with the city at the cursor replaced (a track of a double route: the whole line)."""
        if mapmode.SEPARATOR in name:
            return name
        frag = mapmode.fragment(text, cursor)
        new, _ = mapmode.complete(text, frag, name)
        return new

    def complete(self) -> Did | None:
        """Complete the city at the cursor (a cycle of candidates keeps the line it started from)."""
        row = self.rows[self.at]
        if self.cycle is not None and self.cycle[0] == row.text:
            _, found, index, text = self.cycle
            index = (index + 1) % len(found)
            new = self.completed(text, len(text), found[index])
        else:
            found = self.candidates(row.text, row.cursor)
            if not found:
                return None
            text, index = row.text, 0
            new = self.completed(text, row.cursor, found[0])
        if new is None:
            return None
        row.set(new)
        self.cycle = (new, found, index, text) if len(found) > 1 else None
        return Did.EDIT

    def hint(self, row: Buffer) -> Content:
        """What to type at a line being typed: the cities that fit, or why the map cannot read it."""
        text = row.text
        frag, found = mapmode.candidates(self.game_map, text, row.cursor, self.kind)
        found = self.ordered(frag, found)
        if frag.second_side and frag.typed or not found:
            message = mapmode.resolve(self.game_map, text, self.kind).error
            if not found and frag.second_side and frag.first:
                fits = mapmode.candidates(self.game_map, text[: frag.start], frag.start, self.kind)[1]
                if fits:
                    message += "; it may be " + ", ".join(fits[:SHOWN]) + (" …" if len(fits) > SHOWN else "")
            if not found or frag.second_side:
                return Content.styled("? " + inert(message), "$text-warning")
        more = f" +{len(found) - SHOWN}" if len(found) > SHOWN else ""
        return Content.assemble(("Tab: ", "dim"), ", ".join(found[:SHOWN]), (more, "dim"))

    def read_note(self, found: mapmode.Resolved) -> Content:
        """The note of a line the map reads."""
        return Content.assemble(("✓ ", "$text-success"), (f"{found.size} train{'s' if found.size != 1 else ''}", "dim"))

    def note(self, number: int, row: Buffer, focused: bool) -> Content:
        """The core's problem, what the map reads, or (while typing) what fits."""
        problem = self.problems.get(number)
        found = mapmode.resolve(self.game_map, row.text, self.kind)
        if problem:
            return Content.styled("✗ " + inert(problem), "$text-error")
        if found.name is not None and found.name != row.text.strip() and focused:
            return Content.assemble(("= ", "dim"), found.name)
        if found.name is not None:
            return self.read_note(found)
        if focused:
            return self.hint(row)
        return Content.styled("✗ " + inert(found.error), "$text-error")


class RouteLines(PairLines):
    """A player's claimed routes; under them the trains used and left."""

    HELP = (("route lists", "one claimed route per line by its two cities (den - kan: the beginnings of the names "
                            "do); Enter ends a line, Enter on the empty last line moves on"),
            ("Tab", "completes a city (again: the next one that fits)"),
            ("ctrl+r, ctrl+n", "on a line of a list: remove the line, insert a line"))

    kind = mapmode.ROUTE

    def load(self, value: Any) -> None:
        """The routes as the file holds them, and a line for each."""
        self.scored: list[Any] = list(value) if isinstance(value, list) else []
        super().load(value)

    def value(self) -> Any:
        """As any map list; a list the map reads whole is what gets saved and scored (the trains count it)."""
        value = super().value()
        if value is not NOT_READY:
            self.scored = list(value)
        return value

    def flip(self) -> Did | None:
        """A route is neither done nor failed: ctrl+t does nothing here."""
        return None

    def footer(self) -> Content | None:
        """`trains: 23 used · 22 left of 45`: the routes as saved and scored (a line the map cannot read yet is
        not: the count agrees with the routes' points); a refused route, claimed by another player or twice, uses
        no trains; over the limit in red."""
        used = sum(mapmode.resolve(self.game_map, str(name), self.kind).size
                   for number, name in enumerate(self.scored, 1) if number not in self.problems)
        left = self.game_map.trains - used
        style = "$text-error" if left < 0 else "bold"
        return Content.assemble(("trains: ", "dim"), (f"{used} used", "bold"), " · ", (f"{left} left", style),
                                (f" of {self.game_map.trains}", "dim"))


class TicketLines(PairLines):
    """A player's destination tickets, picked from the map's deck by name: the map says whether each is
    connected and what it is worth (no points or done/failed to type)."""

    HELP = (("ticket lists", "one destination ticket per line by its two cities; the map says whether it is "
                             "connected and what it is worth"),
            ("Tab", "completes a city (again: the next one that fits)"),
            ("ctrl+r, ctrl+n", "on a line of a list: remove the line, insert a line"))

    kind = mapmode.TICKET
    example = 1

    def load(self, value: Any) -> None:
        """Tickets already in the file keep what they had."""
        self.kept: dict[str, dict[str, Any]] = {}
        super().load(value)

    def line_text(self, item: Any) -> str:
        """A ticket as a line: its name (a ticket given by points alone: `8`, `-8`)."""
        if isinstance(item, dict) and item.get("name"):
            self.kept[str(item["name"])] = item
            return str(item["name"])
        if isinstance(item, dict) and "points" in item:
            sign = "" if item.get("completed") is True else "-"
            return f"{sign}{item['points']}"
        return str(item)

    def item_of(self, text: str) -> Any:
        """`{ name = "Denver – El Paso" }` (a ticket already in the file keeps what it had)."""
        if not text.strip():
            return None
        found = mapmode.resolve(self.game_map, text, self.kind)
        if found.name is None:
            card = parse_card(text, needs_points=False)
            if card is not None and "points" in card and "name" not in card:
                return card
            return {"name": text.strip()}
        kept = self.kept.get(text.strip()) or self.kept.get(found.name)
        return dict(kept) if kept else {"name": found.name}

    def readable(self, text: str) -> bool:
        """A ticket of the deck, or points."""
        return mapmode.resolve(self.game_map, text, self.kind).name is not None or "points" in self.item_of(text)

    def mark(self, problems: dict[int, str], items: list[Item]) -> None:
        """Each ticket's item from the core: connected or not, and its points."""
        super().mark(problems, [i for i in items if i.category == "ticket"])

    def read_note(self, found: mapmode.Resolved) -> Content:
        """`✓ connected +4` (from the core's item), or the ticket's worth until it is scored."""
        item = next((i for i in self.items if i.detail[:1] == (found.name,)), None)
        if item is None:
            return Content.styled(f"{found.size} points", "dim")
        if item.points > 0 and item.via:
            via = " and ".join(item.via)
            return Content.assemble((f"✓ connected +{item.points}", "$text-success"),
                                    (f" · station{'s' if len(item.via) > 1 else ''} in ", "dim"), inert(via))
        if item.points > 0:
            return Content.styled(f"✓ connected +{item.points}", "$text-success")
        return Content.styled(f"✗ not connected {item.points}", "$text-warning")


class StationLines(CardLines):
    """A player's stations on Europe, one city per line: Tab completes the city; beside each, the route of another
    player the core chose for it; under them the stations built and left."""

    HELP = (("station lists", "one city per line where the player built a station (ess: the beginning of the name "
                              "does); Enter ends a line, Enter on the empty last line moves on"),
            ("Tab", "completes a city (again: the next one that fits)"),
            ("ctrl+r, ctrl+n", "on a line of a list: remove the line, insert a line"))

    width = 20

    @property
    def game_map(self) -> GameMap:
        """The session's map."""
        return self.context  # type: ignore[no-any-return]

    @property
    def placeholder(self) -> str:  # type: ignore[override]
        """The empty line's example on this board."""
        return self.game_map.empty_line(2) + "  (Tab)"

    def city(self, text: str) -> str | None:
        """The city a line names, or None."""
        from scorekeeper.maps import MapNameError

        try:
            return self.game_map.city(text.strip())
        except MapNameError:
            return None

    def error(self, text: str) -> str:
        """Why the map cannot read a line."""
        from scorekeeper.maps import MapNameError

        try:
            self.game_map.city(text.strip())
        except MapNameError as exc:
            return str(exc)
        return ""

    def line_text(self, item: Any) -> str:
        """A city as a line."""
        return str(item)

    def item_of(self, text: str) -> Any:
        """The city as the map names it, else the text (for the core to refuse)."""
        if not text.strip():
            return None
        return self.city(text) or text.strip()

    def value(self) -> Any:
        """The cities as saved; NOT_READY while a line names no city."""
        lines = [r.text for r in self.rows if r.text.strip()]
        if any(self.city(t) is None for t in lines):
            return NOT_READY
        return self.raw()

    def raw(self) -> Any:
        """The lines as they are, read or not."""
        return [self.item_of(r.text) for r in self.rows if r.text.strip()]

    def canonical(self, text: str) -> str:
        """The line as the map names the city."""
        return self.city(text) or text

    def enter(self) -> Did | None:
        """A line naming no city stays (its reason beside it); else as any list."""
        row = self.rows[self.at]
        if row.text.strip() and self.city(row.text) is None:
            return Did.REFUSE
        return super().enter()

    def flip(self) -> Did | None:
        """A station is neither done nor failed: ctrl+t does nothing here."""
        return None

    def candidates(self, text: str, cursor: int) -> list[str]:
        """The cities the line may be completed to."""
        typed = text.strip()
        found = self.game_map.complete_city(typed) if typed else []
        return [] if len(found) == 1 and found[0] == typed else found

    def completed(self, text: str, cursor: int, name: str) -> str | None:
        """The line replaced by the city."""
        return name

    def mark(self, problems: dict[int, str], items: list[Item]) -> None:
        """Each station's item from the core: the route it uses."""
        super().mark(problems, [i for i in items if i.uses is not None])

    def note(self, number: int, row: Buffer, focused: bool) -> Content:
        """The core's problem; what the station uses; or (while typing) the cities that fit."""
        problem = self.problems.get(number)
        if problem:
            return Content.styled("✗ " + inert(problem), "$text-error")
        city = self.city(row.text)
        if city is None:
            found = self.candidates(row.text, row.cursor)
            if focused and found:
                more = f" +{len(found) - SHOWN}" if len(found) > SHOWN else ""
                return Content.assemble(("Tab: ", "dim"), ", ".join(found[:SHOWN]), (more, "dim"))
            style = "$text-warning" if focused else "$text-error"
            return Content.styled(("? " if focused else "✗ ") + inert(self.error(row.text)), style)
        if city != row.text.strip() and focused:
            return Content.assemble(("= ", "dim"), city)
        item = next((i for i in self.items if i.uses is not None and i.uses[0] == city), None)
        if item is None or item.uses is None:
            return Content.styled("✓ station", "dim")
        if not item.uses[1]:
            return Content.styled("✓ no route of another player here", "dim")
        return Content.assemble(("✓ ", "$text-success"), ("uses ", "dim"), inert(f"{item.uses[2]}'s {item.uses[1]}"))

    def footer(self) -> Content | None:
        """`stations: 2 built · 1 left of 3 (+4)` (lines the core refused not counted)."""
        from scorekeeper.games.boards import STATION_POINTS, STATIONS

        built = sum(1 for number, text in enumerate([r.text for r in self.rows if r.text.strip()], 1)
                    if number not in self.problems and self.city(text) is not None)
        left = STATIONS - built
        style = "$text-error" if left < 0 else "bold"
        return Content.assemble(("stations: ", "dim"), (f"{built} built", "bold"), " · ", (f"{left} left", style),
                                (f" of {STATIONS}", "dim"),
                                (f" (+{STATION_POINTS * left})" if left > 0 else "", "dim"))
