"""The command line's argparse side: one parser for `scorekeeper [--dir DIR] [FILE | COMMAND ...]`, help at the
terminal's width, mistakes said inertly; a command's own parser is built only when it is the one invoked.

argparse's public API only: the first word and the words after it are read by the top parser (`nargs="?"` and
`argparse.REMAINDER`, the documented way of a program that hands its arguments on), then by the named command's
parser, or by the opening parser (`--dir` alone) when the first word is a file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, NoReturn


class ParseError(Exception):
    """A mistake in the arguments, with the usage: the command line says it and exits 1 (argparse would exit 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are ParseErrors, not exit 2, their text inert."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a ParseError: the words it quotes are the user's, and may hold a line feed
        or an escape sequence (`unrecognized arguments: …`), so the complaint is one line, every control escaped."""
        from scorekeeper.model.text import inert

        raise ParseError(f"{self.prog}: {inert(message)}\n{self.format_usage().strip()}")


class Formatter(argparse.HelpFormatter):
    """argparse's help at the terminal's width, found without `shutil` (which argparse imports for it on every
    `add_argument`, and which imports three compression modules: ~3 ms of every run)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_columns() - 2)


class ListingFormatter(argparse.RawDescriptionHelpFormatter):
    """The top parser's help: its description and command listing are laid out by `CommandLine` (at the same
    width), argparse keeps their lines."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_columns() - 2)


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout is not None else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


Setup = Callable[[Parser], None]
"""What fills in a command's parser: its arguments, and `set_defaults(func=…)`."""

OPEN_USAGE = "%(prog)s [--dir DIR] [FILE]"


class CommandLine(Parser):
    """`scorekeeper [--dir DIR] [FILE | COMMAND ...]`: the first word names a command, else it is a file to open.

    `commands` is the project's own list (name: its line in `--help`, and the setup of its parser); `opening`
    sets up the parser of the words after a FILE (or of none).
    """

    def __init__(self, commands: Mapping[str, tuple[str, Setup]], opening: Setup, summary: str) -> None:
        super().__init__(prog="scorekeeper", usage="%(prog)s [--dir DIR] [FILE | COMMAND ...]",
                         formatter_class=ListingFormatter)
        self.commands = commands
        self.opening = opening
        self.summary = summary
        self.add_argument("word", nargs="?", metavar="FILE | COMMAND",
                          help="a session file to open in the app, or one of the commands below")
        self.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def format_help(self) -> str:
        """The help, with the description and the commands wrapped here (argparse keeps their lines)."""
        import textwrap

        width = terminal_columns() - 2
        self.description = textwrap.fill(self.summary, width)
        names = max(map(len, self.commands)) + 2
        lines = ["commands (scorekeeper COMMAND --help tells more):"]
        for name, (line, _setup) in self.commands.items():
            lines += textwrap.wrap(line, max(width, names + 24), initial_indent=f"    {name:<{names}}",
                                   subsequent_indent=" " * (4 + names))
        self.epilog = "\n".join(lines)
        return super().format_help()

    def read(self, argv: list[str]) -> argparse.Namespace:
        """The arguments: `func` is the command to run (`file` is set for the app's opening)."""
        args = self.parse_args(argv)
        word, rest = args.word, args.rest
        del args.word, args.rest
        at = len(argv) - len(rest)
        if rest and at >= 2 and argv[at - 1] == "--" and argv[at - 2] == word:  # REMAINDER ate it: hand it on
            rest = ["--", *rest]
        if word in self.commands:
            sub = Parser(prog=f"scorekeeper {word}")
            self.commands[word][1](sub)
            return sub.parse_args(rest, namespace=args)
        if word is not None and not os.path.exists(word):
            import difflib

            if close := difflib.get_close_matches(word, list(self.commands), n=1):
                self.error(f"no such file or command: {word!r} (did you mean {close[0]!r}?)")
        opening = Parser(prog="scorekeeper", usage=OPEN_USAGE)
        self.opening(opening)
        args = opening.parse_args(rest, namespace=args)
        args.file = word
        return args


class ShowVersion(argparse.Action):
    """`--version`: the installed distribution's version, read when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        """Print `scorekeeper X.Y.Z` and exit 0."""
        from scorekeeper.model.text import inert_lines

        print(inert_lines(f"scorekeeper {version()}"))
        parser.exit()


DISTRIBUTION = "scorekeeper-tui"
"""The name it is installed by (pyproject.toml's `name`): `scorekeeper` on PyPI is another project's."""


def version() -> str:
    """The version, from the installed package's metadata (pyproject.toml is the one place it is written)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        return "(not installed)"
