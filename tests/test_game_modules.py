"""A game is a module: no module outside `games/` and `maps/` names a game id, a board or a category."""

from __future__ import annotations

import ast
from pathlib import Path

import scorekeeper
from scorekeeper.games import GAMES
from scorekeeper.games.base import HouseRules
from scorekeeper.maps import MAPS

PACKAGE = Path(scorekeeper.__file__).parent

FAMILY = frozenset({"ticket", "tickets", "routes"})
"""Categories every game of the family shares (tickets and routes): the summary counts tickets for all of them."""

NO_BOARD = "none"
"""The key of a session on no board: a word too common to look for (`TEXTUAL_ANIMATIONS=none`)."""


def _categories() -> set[str]:
    """Every category a game's steps score, on every board."""
    out: set[str] = set()
    for game in GAMES.values():
        for rules in [{}, *({"map": b} for b in game.boards), *({"edition": b} for b in game.boards)]:
            for step in game.steps(HouseRules(dict(rules))):
                out |= set(step.categories)
    return out - FAMILY


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions (prose, not names)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    for node in ast.walk(tree):  # attribute docstrings: a string statement after an assignment
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for before, stmt in zip(stmts, stmts[1:], strict=False):
                    if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(stmt, ast.Expr) and \
                            isinstance(stmt.value, ast.Constant):
                        out.add(id(stmt.value))
    return out


def named(literal: str, ids: set[str], boards: set[str], categories: set[str]) -> bool:
    """Whether a string literal names a game id, a board or a category (exactly, or a category's `head:`)."""
    heads = {c.split(":", 1)[0] + ":" for c in categories if ":" in c}
    return literal in ids | boards | categories or any(literal.startswith(h) for h in heads)


def offenders() -> list[str]:
    """`file:line: literal` for every string literal outside games/ and maps/ that names a game's knowledge."""
    ids = set(GAMES)
    boards = ({b for g in GAMES.values() for b in g.boards} | set(MAPS)) - {NO_BOARD}
    categories = _categories()
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("games", "maps"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose \
                    and named(node.value, ids, boards, categories):
                out.append(f"{rel}:{node.lineno}: {node.value!r}")
    return out


def test_no_module_outside_the_games_names_a_game_a_board_or_a_category() -> None:
    assert offenders() == []


def test_the_scan_sees_what_it_looks_for() -> None:
    ids, boards, categories = set(GAMES), {b for g in GAMES.values() for b in g.boards}, _categories()
    assert {"ticket-to-ride", "ticket-booth"} <= ids and {"europe", "nordic", "usa"} <= boards
    assert {"longest-path", "globetrotter", "station"} <= categories
    for literal in ("ticket-to-mars", "nordic", "longest-path", "attraction:8", "bonus:", "objective:pairs"):
        assert named(literal, ids, boards, categories | {"attraction:1", "bonus:x", "objective:x"})
    for literal in ("ticket-booth-in-progress.toml", "Europe", "tickets", "board"):
        assert not named(literal, ids, boards, categories)


def test_the_registry_is_a_plain_mapping_of_games() -> None:
    assert type(GAMES) is dict
    assert all(game.id == gid for gid, game in GAMES.items())
