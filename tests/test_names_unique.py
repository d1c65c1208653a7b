"""Player names are unique as statistics match them, after Unicode normalisation and case folding, everywhere a
name is checked: a file's players (`check`), New session, rename, a seat claimed by name (issue 33, item 3)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.cli import main
from scorekeeper.games import validation
from scorekeeper.model.session import Round, Session
from scorekeeper.model.text import name_key
from scorekeeper.tui.screens.dialogs import session_refusals
from scorekeeper.web.seats import player_named
from tests.test_tui_support import STARTED, write_session

NFC = unicodedata.normalize("NFC", "Zoë")
NFD = unicodedata.normalize("NFD", "Zoë")


def twice(players: list[str]) -> list[str]:
    """The messages of `players_problems` that say a name is listed twice."""
    return [p.message for p in validation.players_problems(players) if "listed twice" in p.message]


def test_zoe_composed_and_decomposed_is_one_player() -> None:
    assert NFC != NFD
    assert twice(["Ana", NFC, NFD]) and twice(["ZOË", NFD]) and twice([NFC, "zoë"])
    assert not twice(["Zoe", NFC])  # no accent is another name


names = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), min_size=1, max_size=12) \
    .map(str.strip).filter(lambda n: validation.name_problem(n) is None)


@given(names, names)
def test_two_names_clash_exactly_when_statistics_would_take_them_for_one(a: str, b: str) -> None:
    """The file's check and statistics use one rule: two names are refused together iff statistics would count
    them as one player."""
    assert bool(twice([a, b])) == (name_key(a) == name_key(b))


@given(names)
def test_every_spelling_of_a_name_is_the_same_player(a: str) -> None:
    """Composed, decomposed, case folded: one key; the key of a key is itself."""
    spellings = [unicodedata.normalize(form, a) for form in ("NFC", "NFD")] + [a.casefold()]
    assert {name_key(s) for s in spellings} == {name_key(a)}
    assert name_key(name_key(a)) == name_key(a)


def test_check_refuses_a_file_with_zoe_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`check` says the file lists Zoë twice, so `stats` never meets "Zoë vs Zoë"."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", NFC])
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f'"Ana", "{NFC}"', f'"{NFD}", "{NFC}"'), encoding="utf-8")
    assert NFD in path.read_text(encoding="utf-8")
    assert main(["check", str(path)]) != 0
    assert "is listed twice" in capsys.readouterr().out


def test_renaming_to_another_spelling_of_a_player_is_refused() -> None:
    """Rename checks the session as it would be saved: Ana renamed to Zoë decomposed, beside Zoë composed."""
    session = Session(game="ticket-booth", players=("Ana", NFC), started=STARTED, rounds=(Round(),))
    renamed = session.with_player_renamed("Ana", NFD)
    assert any("listed twice" in p.message for p in session_refusals(renamed))


def test_new_session_refuses_zoe_twice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`new` (and the New session screen, through the same check) refuses the two spellings."""
    assert main(["new", "ticket-booth", "-p", NFC, "-p", NFD, "--dir", str(tmp_path), "--no-open"]) != 0
    assert "listed twice" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.toml"))


def test_a_seat_is_claimed_by_any_spelling_of_the_name() -> None:
    assert player_named(("Ana", NFC), "zoë") == NFC
    assert player_named(("Ana", NFD), NFC) == NFD
    assert player_named(("Ana", NFC), "Zoe") is None



def test_scorekeeper_seat_takes_any_spelling_of_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`scorekeeper seat FILE zoë` opens Zoë's seat, as the file spells her name."""
    import scorekeeper.tui.app

    opened: list[str | None] = []
    monkeypatch.setattr(scorekeeper.tui.app, "run", lambda folder, file, seat=None: opened.append(seat) or 0)
    path = write_session(tmp_path, "ticket-booth", ["Ana", NFD])
    assert main(["seat", str(path), "zoë"]) == 0
    assert opened == [NFD]
