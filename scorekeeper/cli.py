"""The command line: parses arguments, calls the core, or starts the app."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

from scorekeeper import store
from scorekeeper.session import Problem, Session, SessionError

EXIT_OK, EXIT_FAIL, EXIT_INVALID = 0, 1, 2
COMMANDS = ("new", "score", "check", "stats", "games")


class UsageError(Exception):
    """A bad argument: exit 1 with the message, never a traceback."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are UsageErrors (exit 1), not exit 2."""

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a UsageError."""
        raise UsageError(f"{self.prog}: {message}\n{self.format_usage().strip()}")


def build_parsers() -> tuple[Parser, Parser]:
    """The parser of the app (`scorekeeper [FILE]`) and of the commands."""
    app = Parser(prog="scorekeeper", description="Keeps score at the end of a board game of the Ticket family. "
                 f"Commands: {', '.join(COMMANDS)} (scorekeeper COMMAND --help).")
    app.add_argument("file", nargs="?", help="a session file to open (default: the home screen)")
    app.add_argument("--dir", help="the sessions folder (default: $SCOREKEEPER_HOME or the user data folder)")
    app.add_argument("--version", action="version", version="scorekeeper 0.1.0")

    cmd = Parser(prog="scorekeeper")
    sub = cmd.add_subparsers(dest="command", parser_class=Parser)
    new = sub.add_parser("new", help="create a session file and open it")
    new.add_argument("game", help="a game id (scorekeeper games lists them)")
    new.add_argument("-p", "--player", action="append", default=[], dest="players", metavar="NAME",
                     help="a player, in seating order (2 to 5)")
    new.add_argument("--title", help="a title for the session")
    new.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule")
    new.add_argument("--no-open", action="store_true", help="only print the new file's path")
    new.add_argument("--dir", help="the sessions folder")
    score = sub.add_parser("score", help="the full score sheet of each file")
    score.add_argument("files", nargs="+", metavar="FILE")
    score.add_argument("--json", action="store_true", help="print JSON")
    check = sub.add_parser("check", help="validate files: every error and warning with its place")
    check.add_argument("files", nargs="+", metavar="FILE")
    stats = sub.add_parser("stats", help="standings across the sessions of a folder")
    stats.add_argument("folder", nargs="?", metavar="DIR", help="the folder (default: the sessions folder)")
    stats.add_argument("--dir", help="the sessions folder")
    stats.add_argument("--json", action="store_true", help="print JSON")
    sub.add_parser("games", help="the games, their steps and house rules")
    return app, cmd


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    app, cmd = build_parsers()
    try:
        if argv and argv[0] in COMMANDS:
            args = cmd.parse_args(argv)
            return int(globals()[f"cmd_{args.command}"](args))
        args = app.parse_args(argv)
        return open_app(store.sessions_dir(args.dir), Path(args.file) if args.file else None)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def open_app(folder: Path, file: Path | None) -> int:
    """Start the TUI (imported only here, so the commands stay free of Textual)."""
    if file is not None and not file.exists():
        raise UsageError(f"scorekeeper: no such file: {file}")
    from scorekeeper.tui.app import run

    return run(folder, file)


def print_problems(file: str, problems: list[Problem], stream: Any = None) -> None:
    """Each problem on a line of its own, the file named (on stderr unless a stream is given)."""
    for p in problems:
        print(f"{file}: {p.describe()}", file=stream or sys.stderr)


def load_file(name: str) -> tuple[Session | None, list[Problem]]:
    """A session and its problems; None with the errors when it cannot be scored."""
    path = Path(name)
    if path.is_dir():
        return None, [Problem("is a folder, not a session file")]
    try:
        return store.load(path)
    except SessionError as exc:
        return None, exc.problems


def cmd_score(args: argparse.Namespace) -> int:
    """`score FILE… [--json]`."""
    from scorekeeper import games
    from scorekeeper.report import sheet_json, sheet_text

    code = EXIT_OK
    objects: list[dict[str, Any]] = []
    texts: list[str] = []
    for name in args.files:
        session, problems = load_file(name)
        if session is None:
            print_problems(name, [p for p in problems if p.is_error])
            code = EXIT_INVALID
            continue
        sheet = games.score(session, problems)
        if args.json:
            objects.append(sheet_json(sheet, name))
        else:
            texts.append(sheet_text(sheet, name))
    if args.json:
        if objects or len(args.files) == 1:
            payload: Any = objects[0] if len(args.files) == 1 and objects else objects
            if len(args.files) == 1 and not objects:
                return code
            print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(("\n\n" + "=" * 60 + "\n\n").join(texts)) if texts else None
    return code


def cmd_check(args: argparse.Namespace) -> int:
    """`check FILE…`: every error and warning with its place."""
    code = EXIT_OK
    for name in args.files:
        session, problems = load_file(name)
        if session is None:
            code = EXIT_INVALID
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        print_problems(name, problems, sys.stdout)
        verdict = "invalid" if session is None else "ok"
        print(f"{name}: {verdict} — {errors} error{'s' * (errors != 1)}, "
              f"{warnings} warning{'s' * (warnings != 1)}")
    return code


def cmd_games(args: argparse.Namespace) -> int:
    """`games`: the games, their steps and house rules with defaults."""
    from scorekeeper.games import GAMES

    for game in GAMES.values():
        demo = Session(game=game.id, players=("A", "B"))
        print(f"{game.id} — {game.name} ({game.min_players}–{game.max_players} players)")
        print(f"  seating: {game.seating_hint}")
        print(f"  steps: {', '.join(s.title for s in game.steps(demo))}")
        if game.rules:
            print("  house rules:")
            for rule in game.rules:
                choices = f" (one of {', '.join(rule.choices)})" if rule.choices else ""
                print(f"    {rule.key} = {rule.shown_default()}{choices}: {rule.help}")
        print(f"  in brief: {game.summary}")
        print()
    return EXIT_OK


def parse_rule(text: str) -> tuple[str, Any]:
    """`KEY=VALUE`: the value read as TOML (`4`, `"half"`, `true`), else as plain text."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"scorekeeper new: --rule takes KEY=VALUE, got {text!r}")
    try:
        return key, tomllib.loads(f"v = {value.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return key, value.strip()


def cmd_new(args: argparse.Namespace) -> int:
    """`new GAME -p NAME…`: create a session file in the sessions folder (and open it)."""
    from scorekeeper.fields import suggest
    from scorekeeper.games import GAMES

    game = GAMES.get(args.game)
    if game is None:
        raise UsageError(f"scorekeeper new: unknown game {args.game!r}{suggest(args.game, list(GAMES))}; "
                         f"expected one of {', '.join(GAMES)}")
    players = [p.strip() for p in args.players]
    problems = store.players_problems(players, game)
    rules = dict(parse_rule(r) for r in args.rule)
    problems += game.check_rules(rules)
    title = args.title.strip() if args.title else None
    if title is not None and any(ord(c) < 32 for c in title):
        problems.append(Problem("a title is one line of plain text", path="title"))
    if problems:
        for p in problems:
            where = "--rule" if p.path.startswith("rules") else ("-p" if p.path.startswith("players") else "--title")
            print(f"scorekeeper new: {where}: {p.message}", file=sys.stderr)
        return EXIT_FAIL
    now = datetime.now().replace(second=0, microsecond=0)
    session = Session(game=game.id, players=tuple(players), title=title or None, started=now, rules=rules)
    folder = store.sessions_dir(args.dir)
    path = store.new_path(folder, session, now)
    try:
        store.save(path, session)
    except OSError as exc:
        print(f"scorekeeper new: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    print(path)
    if args.no_open:
        return EXIT_OK
    return open_app(folder, path)


def cmd_stats(args: argparse.Namespace) -> int:
    """`stats [DIR] [--json]`: per game and player, plays, wins, win rate, mean and best score."""
    from scorekeeper import games
    from scorekeeper.report import standings
    from scorekeeper.text import inert, ljust, width

    folder = Path(args.folder) if args.folder else store.sessions_dir(args.dir)
    if not folder.is_dir():
        raise UsageError(f"scorekeeper stats: no such folder: {folder}")
    sheets = []
    skipped: list[str] = []
    unfinished = 0
    for path in store.session_files(folder):
        session, problems = load_file(str(path))
        if session is None:
            skipped.append(str(path))
            continue
        sheet = games.score(session, problems)
        unfinished += not sheet.complete
        sheets.append(sheet)
    table = standings(sheets)
    if args.json:
        print(json.dumps({
            "folder": str(folder),
            "games": {g: [s.as_json() for s in rows] for g, rows in table.items()},
            "unfinished": unfinished,
            "invalid": skipped,
        }, ensure_ascii=False, indent=2))
        return EXIT_OK
    if not table:
        print(f"No finished sessions in {folder}.")
    for game_id, rows in table.items():
        print(f"{games.GAMES[game_id].name}")
        names = {r.name: inert(r.name) for r in rows}
        column = max([width(n) for n in names.values()] + [len("player")])
        print(f"  {ljust('player', column)}  plays  wins  win rate   mean   best")
        for r in rows:
            j = r.as_json()
            print(f"  {ljust(names[r.name], column)}  {j['plays']:>5}  {j['wins']:>4}  {j['win_rate']:>8.0%}  "
                  f"{j['mean']:>5g}  {j['best']:>5}")
        print()
    if unfinished:
        print(f"({unfinished} unfinished session{'s' * (unfinished != 1)} not counted)")
    for name in skipped:
        print(f"(skipped, invalid: {name} — scorekeeper check shows why)")
    return EXIT_OK
