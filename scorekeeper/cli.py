"""The command line: one parser, a sub-command per `@command` setup beside its `cmd_*`; calls the core or the app."""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: `--help` and `games` read no session file, `score` makes no Path
    import argparse
    from pathlib import Path

    from scorekeeper.cli_parser import CommandLine, Parser, Setup
    from scorekeeper.model.session import Problem, Session

EXIT_OK, EXIT_FAIL, EXIT_INVALID = 0, 1, 2


def print(*args: Any, sep: str = " ", end: str = "\n", file: Any = None, flush: bool = False) -> None:  # noqa: A001
    """Every line the command line prints passes here: any control byte left in it is shown escaped."""
    from scorekeeper.model.text import inert_lines

    builtins.print(inert_lines(sep.join(str(a) for a in args)), end=end, file=file, flush=flush)


class UsageError(Exception):
    """A bad argument: exit 1 with the message, never a traceback."""


def dir_option(parser: Parser) -> None:
    """`--dir DIR` on a command; given before the command (`scorekeeper --dir D new …`) it holds too."""
    import argparse  # imported already: the parser is argparse's

    parser.add_argument("--dir", default=argparse.SUPPRESS,
                        help="the sessions folder (default: $SCOREKEEPER_HOME or the user data folder)")


COMMANDS: dict[str, tuple[str, Setup]] = {}
"""Each sub-command's name: its line in `--help` and the setup that fills in its parser."""


def command(name: str, help: str) -> Callable[[Setup], Setup]:  # noqa: A002  # argparse's word
    """Register a sub-command: `setup` adds its arguments and `set_defaults(func=…)` to its parser."""

    def register(setup: Setup) -> Setup:
        COMMANDS[name] = (help, setup)
        return setup

    return register


def build_parser() -> CommandLine:
    """The command line's one parser: `scorekeeper [--dir DIR] [FILE]` and a sub-command per registered setup."""
    from scorekeeper.cli_parser import CommandLine, ShowVersion

    parser = CommandLine(COMMANDS, setup_open, "Keeps score at the end of a board game of the Ticket family. "
                         "With no FILE and no COMMAND: the home screen on the sessions folder.")
    parser.add_argument("--dir", help="the sessions folder (default: $SCOREKEEPER_HOME or the user data folder)")
    parser.add_argument("--version", action=ShowVersion)
    return parser


def setup_open(opening: Parser) -> None:
    """`scorekeeper [--dir DIR] [FILE]`: the words after FILE (the FILE itself is the top parser's)."""
    dir_option(opening)
    opening.set_defaults(func=cmd_open)


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments as the parser reads them; UsageError for a mistake."""
    from scorekeeper.cli_parser import ParseError

    try:
        return build_parser().read(argv)
    except ParseError as exc:
        raise UsageError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if not supported_system():
        return EXIT_FAIL
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse(argv)
        return int(args.func(args))
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def supported_system() -> bool:
    """Linux and macOS (POSIX): sessions are locked with `fcntl`, written through hard links, and the app catches
    SIGHUP. Elsewhere (Windows) one line says so, instead of an ImportError in the middle of a save."""
    if os.name == "posix":
        return True
    print("scorekeeper runs on Linux and macOS (it needs POSIX file locks and signals); "
          "on Windows, run it inside WSL.", file=sys.stderr)
    return False


def cmd_open(args: argparse.Namespace) -> int:
    """`scorekeeper [FILE]`: the app on the sessions folder (`--dir`, else the default), or on one session."""
    from pathlib import Path

    from scorekeeper.store.paths import sessions_dir

    return open_app(sessions_dir(args.dir), Path(args.file) if args.file else None)


def open_app(folder: Path, file: Path | None) -> int:
    """Start the TUI (imported only here, so the commands stay free of Textual)."""
    from scorekeeper.model.text import inert

    if file is not None and not file.exists():
        raise UsageError(f"scorekeeper: no such file: {inert(file)}")
    if file is not None and file.is_dir():
        raise UsageError(f"scorekeeper: {inert(file)} is a folder, not a session file: to open it as the sessions "
                         f"folder, scorekeeper --dir {inert(file)}")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"scorekeeper: the sessions folder {inert(folder)} is a file, not a folder (give --dir a "
                         "folder)")
    from scorekeeper.tui.app import run

    return run(folder, file)


def print_problems(file: str, problems: list[Problem], stream: Any = None) -> None:
    """Each problem on a line of its own, the file named (on stderr unless a stream is given)."""
    from scorekeeper.model.text import inert

    for p in problems:
        print(f"{inert(file)}: {p.describe()}", file=stream or sys.stderr)


def as_pathlib_writes(name: str) -> str:
    """The name as `str(Path(name))` writes it (`a/b.toml` for `a//b.toml/`), pathlib imported only for one that
    it would change: a plain name, the common case, costs no pathlib (~3 ms of start-up)."""
    parts = name.split("/")
    if name and "" not in parts[1:] and "." not in parts:
        return name
    from pathlib import Path

    return str(Path(name))


def load_file(name: str) -> tuple[Session | None, list[Problem]]:
    """A session and its problems; None with the errors when it cannot be scored."""
    from scorekeeper import files
    from scorekeeper.model.session import Problem, SessionError

    path = as_pathlib_writes(name)
    if os.path.isdir(path):
        return None, [Problem("is a folder, not a session file")]
    try:
        return files.load(path)
    except SessionError as exc:
        return None, exc.problems


@command("score", "the full score sheet of each file")
def setup_score(score: Parser) -> None:
    """`score FILE… [--json]`."""
    score.add_argument("files", nargs="+", metavar="FILE")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.set_defaults(func=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    """`score FILE… [--json]`."""
    return score_files(args.files, args.json)


def score_files(files: list[str], as_json: bool) -> int:
    """The score sheet of each file, as text or JSON; exit 2 when one cannot be scored."""
    from scorekeeper import games
    from scorekeeper.after.report import sheet_json, sheet_text

    code = EXIT_OK
    objects: list[dict[str, Any]] = []
    texts: list[str] = []
    for name in files:
        session, problems = load_file(name)
        if session is None:
            print_problems(name, [p for p in problems if p.is_error])
            code = EXIT_INVALID
            continue
        sheet = games.score(session, problems)
        if as_json:
            objects.append(sheet_json(sheet, name))
        else:
            texts.append(sheet_text(sheet, name))
    if as_json:
        if objects or len(files) == 1:
            payload: Any = objects[0] if len(files) == 1 and objects else objects
            if len(files) == 1 and not objects:
                return code
            import json

            print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(("\n\n" + "=" * 60 + "\n\n").join(texts)) if texts else None
    return code


@command("check", "validate files: every error and warning with its place")
def setup_check(check: Parser) -> None:
    """`check FILE…`."""
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """`check FILE…`: every error and warning with its place."""
    from scorekeeper.model.text import inert

    code = EXIT_OK
    for name in args.files:
        session, problems = load_file(name)
        if session is None:
            code = EXIT_INVALID
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        print_problems(name, problems, sys.stdout)
        verdict = "invalid" if session is None else "ok"
        print(f"{inert(name)}: {verdict} — {errors} error{'s' * (errors != 1)}, "
              f"{warnings} warning{'s' * (warnings != 1)}")
    return code


@command("games", "the games, their steps and house rules")
def setup_games(games: Parser) -> None:
    """`games`."""
    games.set_defaults(func=cmd_games)


def cmd_games(args: argparse.Namespace) -> int:
    """`games`: the games, their steps and house rules with defaults."""
    from scorekeeper.games import GAMES
    from scorekeeper.games.base import HouseRules

    defaults = HouseRules()
    for game in GAMES.values():
        books = f"rulebook{'s' * (',' in game.rulebook)} {game.rulebook}"
        print(f"{game.id} — {game.name} ({game.min_players}–{game.max_players} players; {books})")
        print(f"  seating: {game.seating_hint}")
        print(f"  steps: {', '.join(s.title for s in game.steps(defaults))}")
        if game.boards:
            print(f"  boards (stats --board): {', '.join(game.boards)}")
        if game.rules:
            print("  house rules:")
            for rule in game.rules:
                choices = f" (one of {', '.join(rule.choices)})" if rule.choices else ""
                print(f"    {rule.key} = {rule.shown_default()}{choices}: {rule.help}")
        print(f"  in brief: {game.summary}")
        print()
    return EXIT_OK


@command("new", "create a session file and open it")
def setup_new(new: Parser) -> None:
    """`new GAME -p NAME… [--title T] [--rule KEY=VALUE…] [--no-open]`."""
    new.add_argument("game", help="a game id (scorekeeper games lists them)")
    new.add_argument("-p", "--player", action="append", default=[], dest="players", metavar="NAME",
                     help="a player, in seating order (2 to 5)")
    new.add_argument("--title", help="a title for the session")
    new.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule")
    new.add_argument("--no-open", action="store_true", help="only print the new file's path")
    dir_option(new)
    new.set_defaults(func=cmd_new)


def parse_rule(text: str) -> tuple[str, Any]:
    """`KEY=VALUE`: the value read as TOML (`4`, `"half"`, `true`), else as plain text."""
    import tomllib

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
    from datetime import datetime

    from scorekeeper import store
    from scorekeeper.games import GAMES, validation
    from scorekeeper.games.fields import suggest, text_problem
    from scorekeeper.model.session import Problem, Session
    from scorekeeper.model.text import inert
    from scorekeeper.store.paths import sessions_dir

    game = GAMES.get(args.game)
    if game is None:
        raise UsageError(f"scorekeeper new: unknown game {args.game!r}{suggest(args.game, list(GAMES))}; "
                         f"expected one of {', '.join(GAMES)}")
    players = [p.strip() for p in args.players]
    problems = validation.players_problems(players, game)
    rules = dict(parse_rule(r) for r in args.rule)
    problems += game.check_rules(rules)
    title = args.title.strip() if args.title else None
    bad_title = text_problem(title, "the title") if title is not None else None
    if bad_title:
        problems.append(Problem(bad_title, path="title"))
    if problems:
        for p in problems:
            where = "--rule" if p.path.startswith("rules") else ("-p" if p.path.startswith("players") else "--title")
            print(f"scorekeeper new: {where}: {p.message}", file=sys.stderr)
        return EXIT_FAIL
    now = datetime.now().replace(second=0, microsecond=0)
    session = Session(game=game.id, players=tuple(players), title=title or None, started=now, rules=rules)
    folder = sessions_dir(args.dir)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"scorekeeper new: the sessions folder {inert(folder)} is a file, not a folder")
    store.remove_stale_temps(folder)
    try:
        path = store.create(folder, session, now)
    except OSError as exc:
        print(f"scorekeeper new: cannot write a session file in {inert(folder)}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_FAIL
    print(path)
    if args.no_open:
        return EXIT_OK
    return open_app(folder, path)


@command("stats", "statistics over the finished sessions of a folder")
def setup_stats(stats: Parser) -> None:
    """`stats [DIR] [--game G] [--player P] [--since DATE] [--until DATE] [--year Y] [--board B] [--json]`."""
    stats.add_argument("folder", nargs="?", metavar="DIR", help="the folder (default: the sessions folder)")
    dir_option(stats)
    stats.add_argument("--game", help="only this game (an id: scorekeeper games lists them)")
    stats.add_argument("--player", help="only the sessions of this player (names match after NFC and case "
                       "folding); margins come from all of them, lost ones too; the page's start player's win "
                       "rate: of the sessions the player started (first player of round 1), the share they won")
    stats.add_argument("--since", metavar="DATE", help="only sessions played on or after DATE (YYYY-MM-DD)")
    stats.add_argument("--until", metavar="DATE", help="only sessions played on or before DATE (YYYY-MM-DD)")
    stats.add_argument("--year", type=int, help="only sessions played in this year (instead of --since/--until)")
    stats.add_argument("--board", help="only games on this board (rule map, else edition; none: neither): "
                       "scorekeeper games lists each game's boards")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument("--csv", action="store_true", help="print the players' tables as CSV")
    stats.set_defaults(func=cmd_stats)


@command("export", "sessions as CSV, Markdown, a BG Stats play link, JSON, or plain text for a group chat")
def setup_export(export: Parser) -> None:
    """`export FILE… --to csv|md|bgstats|json|text [-o OUT]`."""
    export.add_argument("files", nargs="+", metavar="FILE")
    export.add_argument("--to", required=True, choices=("csv", "md", "bgstats", "json", "text"),
                        help="the format: csv, md (a Markdown score sheet), bgstats (a BG Stats link), json (as "
                             "score --json), text (plain text to paste in a group chat: no table, readable names)")
    export.add_argument("-o", "--output", metavar="OUT", help="write to this new file, never over one (default: print)")
    export.set_defaults(func=cmd_export)


def cmd_stats(args: argparse.Namespace) -> int:
    """`stats [DIR] [--game G] [--player P] [--since DATE] [--until DATE] [--year Y] [--board B] [--json|--csv]`."""
    import sqlite3
    from datetime import date
    from pathlib import Path

    from scorekeeper.after.stats import statistics
    from scorekeeper.index import Index
    from scorekeeper.model.text import inert
    from scorekeeper.store.paths import sessions_dir

    folder = Path(args.folder) if args.folder else sessions_dir(args.dir)
    if not folder.is_dir():
        raise UsageError(f"scorekeeper stats: no such folder: {inert(folder)}")
    days: dict[str, date | None] = {"since": None, "until": None}
    for key in days:
        text = getattr(args, key)
        try:
            days[key] = date.fromisoformat(text) if text else None
        except ValueError:
            raise UsageError(f"scorekeeper stats: --{key} takes a date like 2026-01-31, got {text!r}") from None
    if args.year is not None:
        if args.since or args.until:
            raise UsageError("scorekeeper stats: --year is a period of its own; give it or --since/--until")
        if not 1 <= args.year <= 9999:
            raise UsageError(f"scorekeeper stats: --year takes a year like 2026, got {args.year}")
        days = {"since": date(args.year, 1, 1), "until": date(args.year, 12, 31)}
    since, until = days["since"], days["until"]
    if args.game is not None:
        from scorekeeper.games import GAMES

        if args.game not in GAMES:
            from scorekeeper.games.fields import suggest

            raise UsageError(f"scorekeeper stats: unknown game {args.game!r}{suggest(args.game, list(GAMES))}; "
                             f"expected one of {', '.join(GAMES)}")
    if args.board is not None:
        from scorekeeper.games import GAMES

        boards = list(dict.fromkeys(b for g in GAMES.values() for b in g.boards))
        if args.board not in boards:
            from scorekeeper.games.fields import suggest

            raise UsageError(f"scorekeeper stats: unknown board {args.board!r}{suggest(args.board, boards)}; "
                             f"expected one of {', '.join(boards)}")
    from scorekeeper.after.progress import TerminalProgress

    bar = TerminalProgress()
    try:
        with Index(folder) as index:
            try:
                index.refresh(workers=None, progress=bar)
            finally:
                bar.close()
            result = statistics(index.iter_summaries(game=args.game, since=since), game=args.game,
                                player=args.player, since=since, until=until, board=args.board)
    except sqlite3.OperationalError as exc:  # the index stayed locked by another process past the timeout
        print(f"scorekeeper stats: the sessions index is busy ({exc}); try again", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        from scorekeeper.after.stats import to_json

        print(to_json(result, str(folder)))
    elif args.csv:
        from scorekeeper.after.stats import to_csv
        from scorekeeper.model.text import inert_lines

        sys.stdout.write("\r\n".join(inert_lines(part) for part in to_csv(result).split("\r\n")))
    else:
        from scorekeeper.after.report import stats_text

        print(stats_text(result, str(folder)))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """`export FILE… --to csv|md|bgstats|json|text [-o OUT]`: every valid file, in one output."""
    from pathlib import Path

    from scorekeeper import games, store
    from scorekeeper.after.export import export
    from scorekeeper.model.text import inert

    code = EXIT_OK
    sheets = []
    for name in args.files:
        session, problems = load_file(name)
        if session is None:
            print_problems(name, [p for p in problems if p.is_error])
            code = EXIT_INVALID
            continue
        sheets.append((games.score(session, problems), name))
    if not sheets:
        return code
    text = export(sheets, args.to, bom=bool(args.output))
    if args.output:
        try:
            store.write_atomic(Path(args.output), text, exclusive=True)
        except FileExistsError:
            print(f"scorekeeper export: {inert(args.output)} exists; an export never replaces a file (give another "
                  "name, or remove it first)", file=sys.stderr)
            return EXIT_FAIL
        except OSError as exc:
            print(f"scorekeeper export: cannot write {inert(args.output)}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_FAIL
    else:
        from scorekeeper.model.text import inert_lines

        sys.stdout.write("\r\n".join(inert_lines(part) for part in text.split("\r\n")))  # CSV's line ends kept
    return code


@command("serve", "the app in a web browser, behind a secret token (see the README)")
def setup_serve(serve: Parser) -> None:
    """`serve [--dir DIR] [--host H] [--port P]`."""
    dir_option(serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this computer only; "
                            "0.0.0.0 opens it to the local network)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    serve.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """`serve`: the app in a browser through textual-serve, until Ctrl+C."""
    from scorekeeper.store.paths import sessions_dir
    from scorekeeper.web.serve import ServeError, serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"scorekeeper serve: --port takes 0 to 65535, got {args.port}")
    try:
        return serve(sessions_dir(args.dir), args.host, args.port)
    except ServeError as exc:
        print(f"scorekeeper serve: {exc}", file=sys.stderr)
        return EXIT_FAIL


@command("seat", "one player's seat of a session: that player's inputs only (what `serve` gives a phone that joins)")
def setup_seat(seat: Parser) -> None:
    """`seat [--dir DIR] [--] FILE PLAYER`: one argument of two values, so that after `--` a player named `--` is
    read as a name (argparse takes one `--` out of each argument's values)."""
    dir_option(seat)
    seat.usage = "%(prog)s [-h] [--dir DIR] [--] FILE PLAYER"
    seat.add_argument("names", nargs=2, metavar="FILE PLAYER",
                      help="the session file, and the player whose seat this is")
    seat.set_defaults(func=cmd_seat)


def cmd_seat(args: argparse.Namespace) -> int:
    """`seat`: the app on one session, as one player's seat."""
    from pathlib import Path

    from scorekeeper import files
    from scorekeeper.model.session import SessionError
    from scorekeeper.store.paths import sessions_dir

    file, player = Path(args.names[0]), args.names[1]
    try:
        session, _ = files.load(file)
    except (SessionError, OSError) as exc:
        raise UsageError(f"scorekeeper seat: cannot open {file}: {exc}") from None
    from scorekeeper.web.seats import player_named

    named = player_named(session.players, player)
    if named is None:
        raise UsageError(f"scorekeeper seat: {player!r} is not a player of {file.name} "
                         f"(the players: {', '.join(session.players)})")
    from scorekeeper.tui.app import run

    return run(sessions_dir(getattr(args, "dir", None)), file, seat=named)
