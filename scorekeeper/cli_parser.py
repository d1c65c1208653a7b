"""The command line's argparse side: the parser, help at the terminal's width, sub-commands built when invoked.

Imported only when argparse reads the command line: `score` on plain file names is read without it (argparse and
the gettext lookups of its messages are a tenth of that command's start-up).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn


class ParseError(Exception):
    """A mistake in the arguments, with the usage: the command line says it and exits 1 (argparse would exit 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are ParseErrors, not exit 2."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(formatter_class=Formatter, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a ParseError."""
        raise ParseError(f"{self.prog}: {message}\n{self.format_usage().strip()}")


class Formatter(argparse.HelpFormatter):
    """argparse's help at the terminal's width, found without `shutil` (which argparse imports for it on every
    `add_argument`, and which imports three compression modules: ~3 ms of every run)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_columns() - 2)


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[Parser]
else:
    Commands = argparse._SubParsersAction

Setup = Callable[[Parser], None]
"""What fills in a command's parser: its arguments, and `set_defaults(func=…)`."""


class CommandOrFile(Commands):
    """The sub-commands, where a first word that names none is the session file to open.

    `--help` lists every command by name; a command's own parser is built only when it is the one invoked.
    """

    OPEN = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = None  # type: ignore[assignment]  # any word: a command's name, else a file
        self.setups: dict[str, Setup] = {}

    def declare(self, name: str, help: str, setup: Setup) -> None:  # noqa: A002  # argparse's word
        """List a command in `--help`; `setup` fills in its parser when the command is invoked."""
        self.setups[name] = setup
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))

    def opening(self, setup: Setup) -> None:
        """The setup of the parser that reads a first word naming no command: a file to open."""
        self.setups[self.OPEN] = setup

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        """Run the named command's parser, or the opening parser on a file name."""
        word = values[0]
        if word not in self.setups:
            import difflib

            if not os.path.exists(word) and (close := difflib.get_close_matches(word, self.commands(), n=1)):
                parser.error(f"no such file or command: {word!r} (did you mean {close[0]!r}?)")
            word, values = self.OPEN, [self.OPEN, *values]
        if word not in self._name_parser_map:
            self.setups[word](self.add_parser(word))
        super().__call__(parser, namespace, values, option_string)

    def commands(self) -> list[str]:
        """The names of the sub-commands."""
        return [name for name in self.setups if name != self.OPEN]


class ShowVersion(argparse.Action):
    """`--version`: the installed distribution's version, read when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        """Print `scorekeeper X.Y.Z` and exit 0."""
        from scorekeeper.text import inert_lines

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

