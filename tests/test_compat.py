"""Canaries: each private name of Textual that scorekeeper/tui/compat.py uses still exists in the Textual installed;
and no other module of the app reaches for one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import textual
import textual.content
from textual.app import App
from textual.reactive import Reactive
from textual.widgets import Static

from scorekeeper.tui import compat

ROOT = Path(__file__).resolve().parent.parent / "scorekeeper"


@pytest.mark.parametrize("name", sorted(compat.NAMES))
def test_each_private_name_still_exists(name: str) -> None:
    owner, attribute = compat.NAMES[name]
    if owner is None:
        have = callable(getattr(textual.content, attribute, None))
    else:
        probe = Static() if owner.__name__ in ("MessagePump", "Widget") else App() if owner is App else None
        have = hasattr(owner, attribute) or (probe is not None and hasattr(probe, attribute))
        if not have and owner.__name__ == "Key":
            have = hasattr(owner("a", "a"), attribute)
    assert have, (f"Textual {textual.__version__} has no {name}: scorekeeper/tui/compat.py must find another way "
                  "before this Textual is pinned (see the README, 'Textual version')")


def test_control_codes_are_escaped_by_textual_content() -> None:
    """The replaced filter shows ESC as an escape in every Content Textual builds."""
    from textual.content import Content

    from scorekeeper.tui.inert import guard_terminal

    guard_terminal()
    assert "\x1b" not in Content("a\x1b[31mb").plain


def test_the_filter_box_keeps_its_virtual_size_from_compat() -> None:
    """The home screen's filter redeclares Textual's `virtual_size` reactive through compat (redeclaring it sets
    the private `_default_virtual_size`), and it still draws only the box when its text grows."""
    from scorekeeper.tui.screens.home import FilterBox

    declared = FilterBox.__dict__["virtual_size"]
    assert isinstance(declared, Reactive)
    assert dict((name, value) for name, value, *_ in declared.__rich_repr__())["layout"] is False


def test_no_module_but_compat_touches_a_private_name_of_textual() -> None:
    """Private names of the project's own classes are the project's; of Textual's, only compat.py has them (the
    key handlers are public `on_key`: Textual looks up `_on_key` or `on_key` per class, the same order)."""
    textual_private = re.compile(
        r"_push_result_callback|_message_queue|_binding_chain|_forward_event|_stop_propagation|"
        r"_strip_control_codes|def _on_[a-z]|\"_closing\"|\"_closed\"|\"_task\"|\._closing|\._closed|"
        r"_default_virtual_size|virtual_size\s*(:[^=]*)?=\s*Reactive\(")
    offenders = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
                 for path in sorted((ROOT / "tui").rglob("*.py")) if path.name != "compat.py"
                 for n, line in enumerate(path.read_text().splitlines(), 1) if textual_private.search(line)]
    assert offenders == []


PROJECT_NAMES = {
    "_write_all": "scorekeeper/store/__init__.py",
    "_cell": "scorekeeper/after/export.py",
    "_con": "scorekeeper/index/__init__.py",
    "_to_memory": "scorekeeper/index/__init__.py",
    "_spans": "scorekeeper/tui/widgets/bars.py",
    "_last_key": "scorekeeper/walk/document.py",
    "_advance": "scorekeeper/walk/document.py",
    "_plain_texts": "scorekeeper/index/summary.py",
    "_fig": "scorekeeper/after/report.py",
}
"""The underscore names the tests and the benches may use: the project's own, each with the module that defines it
(`os._exit` is CPython's documented way out of a process, not a private name)."""

PUBLIC_NAMES = {"_exit"}

UNDERSCORE_NAME = re.compile(r"\.(_[a-z]\w*)|[\"'](_[a-z]\w*)[\"']|\bimport\s+(_[a-z]\w*)")
"""An underscore name as an attribute (`app.NAME`, `"textual.app.NAME"`), a name of one (`setattr(x, "NAME")`) or
an import (`from module import NAME`)."""


def test_the_project_defines_each_underscore_name_the_tests_may_use() -> None:
    """The allowed names are the project's: each is defined in the module named (so none hides one of Textual's)."""
    for name, module in PROJECT_NAMES.items():
        source = (ROOT.parent / module).read_text(encoding="utf-8")
        assert re.search(rf"def {name}\b|^\s*(self\.)?{name}\b\s*[:=]", source, re.MULTILINE), (name, module)


def test_the_tests_and_benches_use_no_private_name_of_the_frameworks() -> None:
    """A private name of Textual, textual-serve, Rich, argparse or CPython goes through scorekeeper/tui/compat.py
    (or scorekeeper/web/compat.py), with a canary above; the tests and the benches use only the project's own
    (this file names the private names to check them, and is not read)."""
    allowed = set(PROJECT_NAMES) | PUBLIC_NAMES
    offenders = [f"{path.relative_to(ROOT.parent)}:{n}: {name}"
                 for folder in ("tests", "bench") for path in sorted((ROOT.parent / folder).rglob("*.py"))
                 if path != Path(__file__).resolve()
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 for match in UNDERSCORE_NAME.finditer(line) for name in match.groups()
                 if name is not None and name not in allowed]
    assert offenders == [], "use scorekeeper/tui/compat.py (a function and a canary per name): " + ", ".join(offenders)
