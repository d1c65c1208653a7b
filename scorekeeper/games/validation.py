"""The one set of rules a session must follow: checked on parsed TOML (`from_dict`) or on the model (`validate`).

No I/O and no TOML: the store reads and writes files, this module says what is wrong with what was read.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from datetime import date, datetime, time
from functools import partial
from typing import TYPE_CHECKING, Any

from scorekeeper.games import GAMES, check
from scorekeeper.games.fields import MAX_ROUNDS, check_entry, suggest, text_problems, type_name, unknown_key
from scorekeeper.model.memo import PerRound
from scorekeeper.model.session import FORMAT, Problem, Round, Session, location
from scorekeeper.model.text import name_key

if TYPE_CHECKING:
    from scorekeeper.games.base import Game

ENTRIES: PerRound[tuple[Problem, ...]] = PerRound()
"""The problems of each model round's tables, by the round's value."""
TEXTS: PerRound[tuple[Problem, ...]] = PerRound()
"""The problems of each model round's texts and numbers, by the round's value."""
TOP_KEYS = ("format", "game", "title", "started", "players", "notes", "rules", "rounds")
MAX_NAME = 40


# -- names ------------------------------------------------------------------------------
def name_problem(name: Any) -> str | None:
    """None when name is a valid player name, else what is wrong and what is allowed."""
    if not isinstance(name, str):
        return f"{type_name(name)} is not a name; a name is text"
    if not name.strip():
        return "a name cannot be empty"
    if name != name.strip():
        return f"{name!r} has spaces at an end; write it trimmed: {name.strip()!r}"
    if len(name) > MAX_NAME:
        return f"{name[:20]!r}… is {len(name)} characters long; a name has at most {MAX_NAME}"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        return f"{name!r} has a control character; a name is plain text"
    return None


def players_problems(players: Any, game: Any = None) -> list[Problem]:
    """Every problem with the `players` list (names, uniqueness as `text.name_key` compares names, how many)."""
    if not isinstance(players, list):
        return [Problem(f"{type_name(players)} is not allowed here; expected a list of 2 to 5 names "
                        "in seating order, like [\"Ana\", \"Bo\"]", path="players")]
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for i, name in enumerate(players, start=1):
        msg = name_problem(name)
        if msg:
            problems.append(Problem(msg, path=f"players[{i}]"))
            continue
        key = name_key(name)
        if key in seen:
            problems.append(Problem(f"{name!r} is listed twice (names are unique ignoring case and how accents are "
                                    f"typed: {seen[key]!r} is already a player)", path=f"players[{i}]"))
        seen[key] = name
    lo, hi = (game.min_players, game.max_players) if game else (2, 5)
    if not lo <= len(players) <= hi:
        what = game.name if game else "a game"
        problems.append(Problem(f"{len(players)} players listed; {what} takes {lo} to {hi}", path="players"))
    return problems


def validate(session: Session) -> list[Problem]:
    """Every problem of a session model, exactly as `from_dict` finds them in the file the session would be saved as.

    The model is checked as it is: its top-level values are laid out under the file's keys, its rounds and
    entries are read in place (never copied into a dict or written as TOML).
    """
    return _check(_top(session))[1]


def round_texts(session: Session, number: int) -> list[Problem]:
    """The problems `validate` finds in the texts and numbers of round `number` alone (a name too long, a control
    character, a number of more digits than a file holds), each at its player's field: what an editor of the round
    refuses at its box, for as little work in round 30 as in round 1."""
    if not 1 <= number <= len(session.rounds):
        return []
    return text_problems({"rounds": [Round()] * (number - 1) + [session.rounds[number - 1]]})


def _top(session: Session) -> dict[str, Any]:
    """The session's top-level values under the file's keys, in the order the store writes them (rounds as models)."""
    return session.as_document(list(session.rounds))


def from_dict(raw: dict[str, Any], *, plain: bool = False) -> tuple[Session | None, list[Problem]]:
    """A session from parsed TOML, with every problem; None when it cannot be built.

    The checks across fields and players run even when a field has an error: on the session without the fields
    in error, for the errors they can still find (at a player's field; a round-wide error only before the first
    round with an error, since it may come from the points left out). `plain`: the caller has proven from the
    file's text that no text in it is too long or holds a control character (those checks are skipped).
    """
    return _check(raw, plain)


def _check(raw: Mapping[str, Any], plain: bool = False) -> tuple[Session | None, list[Problem]]:
    """`from_dict` on a file's top-level values; a round is a parsed table or a `Round` of the model."""
    problems: list[Problem] = []
    fmt = raw.get("format")
    if "format" not in raw:
        problems.append(Problem(f"the file has no format; add format = {FORMAT} at the top", path="format",
                                line=1))
    elif isinstance(fmt, bool) or not isinstance(fmt, int):
        problems.append(Problem(f"{type_name(fmt)} is not a format; expected format = {FORMAT}", path="format"))
    elif fmt > FORMAT:
        return None, [Problem(f"format {fmt} is newer than this scorekeeper knows (format {FORMAT}); "
                              "update scorekeeper to open it — the file is left as it is", path="format")]
    elif fmt < 1:
        problems.append(Problem(f"format {fmt} does not exist; expected format = {FORMAT}", path="format"))

    for key in raw:
        if key not in TOP_KEYS:
            problems.append(Problem(unknown_key(key, TOP_KEYS), path=key))

    game = None
    game_id = raw.get("game")
    if "game" not in raw:
        problems.append(Problem(f"the file has no game; expected one of {', '.join(GAMES)}", path="game",
                                line=1))
    elif not isinstance(game_id, str) or game_id not in GAMES:
        hint = suggest(game_id, list(GAMES)) if isinstance(game_id, str) else ""
        shown = repr(game_id) if isinstance(game_id, str) else type_name(game_id)
        problems.append(Problem(f"unknown game {shown}{hint}; expected one of {', '.join(GAMES)}", path="game"))
    else:
        game = GAMES[game_id]

    for key in ("title", "notes"):
        if key in raw and not isinstance(raw[key], str):
            problems.append(Problem(f"{type_name(raw[key])} is not allowed here; expected text", path=key))
    if not plain:
        problems.extend(_texts(raw))
    started = raw.get("started")
    if "started" in raw and (not isinstance(started, (date, datetime)) or isinstance(started, time)):
        problems.append(Problem(f"{type_name(started)} is not allowed here; expected a TOML date or date-time "
                                "like 2026-11-27T19:30:00", path="started"))

    players = raw.get("players")
    if "players" not in raw:
        problems.append(Problem("the file has no players; expected players = [\"Ana\", \"Bo\"] "
                                "(2 to 5 names in seating order)", path="players", line=1))
    else:
        problems.extend(players_problems(players, game))
    names_ok = isinstance(players, list) and all(isinstance(p, str) for p in players)

    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        problems.append(Problem(f"{type_name(rules)} is not allowed here; expected a [rules] table", path="rules"))
        rules = {}
    elif game:
        problems.extend(game.check_rules(rules))

    rounds_raw = raw.get("rounds", [])
    rounds: list[Round] = []
    if not isinstance(rounds_raw, list):
        problems.append(Problem(f"{type_name(rounds_raw)} is not allowed here; expected [[rounds]] tables",
                                path="rounds"))
        rounds_raw = []
    if len(rounds_raw) > MAX_ROUNDS:
        problems.append(Problem(f"{len(rounds_raw):,} rounds; a session has at most {MAX_ROUNDS}", path="rounds"))
        rounds_raw = []
    for number, rnd in enumerate(rounds_raw, start=1):
        base = f"rounds[{number}]"
        if isinstance(rnd, Round):  # the model's round: read in place (no players is the empty table)
            entries: Any = rnd.players or {}
        elif not isinstance(rnd, dict):
            problems.append(Problem(f"{type_name(rnd)} is not allowed here; expected a [[rounds]] table",
                                    path=base, round=number))
            rounds.append(Round())
            continue
        else:
            for key in rnd:
                if key != "players":
                    problems.append(Problem(unknown_key(key, ["players"]), path=f"{base}.{key}", round=number))
            entries = rnd.get("players", {})
        if not isinstance(entries, dict):
            problems.append(Problem(f"{type_name(entries)} is not allowed here; expected a table per player "
                                    f"([rounds.players.NAME])", path=f"{base}.players", round=number))
            entries = {}
        if isinstance(rnd, Round) and isinstance(rnd.players, dict):  # kept by its value
            depends = (game.id if game else None, players, names_ok, rules)
            problems.extend(ENTRIES.get(rnd, number, depends,
                                        partial(_entries, entries, number, players, names_ok, game, rules)))
            rounds.append(rnd)
            continue
        problems.extend(_entries(entries, number, players, names_ok, game, rules))
        rounds.append(Round(players=dict(entries)))

    if (game is None or not names_ok or not isinstance(players, list)
            or any(p.is_error and p.path.startswith("players") for p in problems)):
        return None, problems
    broken = any(p.is_error for p in problems)
    if broken:
        rules, rounds = _without_errors(rules, rounds, problems)
    text_or_none = {k: raw[k] if isinstance(raw.get(k), str) else None for k in ("title", "notes")}
    session = Session(  # with errors too, so that the checks across fields still run: only sound values in it
        game=game.id, players=tuple(players), title=text_or_none["title"],
        started=started if isinstance(started, (date, datetime)) and not isinstance(started, time) else None,
        notes=text_or_none["notes"], rules=dict(rules), rounds=tuple(rounds),
        format=fmt if isinstance(fmt, int) and not isinstance(fmt, bool) and 1 <= fmt <= FORMAT else FORMAT,
    )
    found = check(session)
    if broken:
        first = min((p.round for p in problems if p.is_error and p.round is not None), default=len(rounds) + 1)
        found = [p for p in found if p.is_error and (p.player is not None or (p.round or 0) < first)]
    problems.extend(found)
    return (None if any(p.is_error for p in problems) else session), problems


def _entries(entries: dict[str, Any], number: int, players: Any, names_ok: bool, game: Game | None,
             rules: dict[str, Any]) -> tuple[Problem, ...]:
    """The problems of each player's table in a round: a name not among the players, each field's."""
    problems: list[Problem] = []
    for name, entry in entries.items():
        at = location(number, name)
        if names_ok and isinstance(players, list) and name not in players:
            problems.append(Problem(f"{name!r} is not one of the players ({', '.join(players)})"
                                    f"{suggest(name, players)}", path=at, round=number, player=name))
            continue
        if game:
            problems.extend(check_entry(game.fields_for(rules), entry, at, number, name))
    return tuple(problems)


def _texts(raw: Mapping[str, Any]) -> list[Problem]:
    """`text_problems` of the top-level values; the model's rounds each kept by its value."""
    rounds = raw.get("rounds")
    if not isinstance(rounds, list) or not rounds or list(raw)[-1] != "rounds" \
            or not all(isinstance(r, Round) for r in rounds):
        return text_problems(raw)
    out = text_problems({k: v for k, v in raw.items() if k != "rounds"})
    for number, rnd in enumerate(rounds, 1):
        out.extend(TEXTS.get(rnd, number, None,
                             partial(_round_texts, rnd, number)))
    return out


def _round_texts(rnd: Round, number: int) -> tuple[Problem, ...]:
    """`text_problems` of one round of the model (as the round numbered `number`)."""
    return tuple(text_problems({"rounds": [Round()] * (number - 1) + [rnd]}))


def _without_errors(rules: dict[str, Any], rounds: list[Round], problems: list[Problem]
                    ) -> tuple[dict[str, Any], list[Round]]:
    """The rules and rounds less every rule, player table and field with an error (for the checks across them)."""
    bad_rules = {p.path.split(".", 1)[1].split(".")[0] for p in problems if p.is_error and p.path.startswith("rules.")}
    bad = {(p.round, p.player, p.field) for p in problems if p.is_error and p.player is not None}
    kept = []
    for number, rnd in enumerate(rounds, start=1):
        entries = {name: {k: v for k, v in entry.items() if (number, name, k) not in bad}
                   for name, entry in rnd.players.items()
                   if isinstance(entry, dict) and (number, name, None) not in bad}
        kept.append(Round(players=entries))
    return {k: v for k, v in rules.items() if k not in bad_rules}, kept
