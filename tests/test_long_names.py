"""Issue 22.4: a route name far longer than any city is refused before matching, in linear work."""

from __future__ import annotations

from pathlib import Path

import pytest

import scorekeeper.maps.game_map as game_map
from scorekeeper.cli import main
from scorekeeper.maps import MapNameError, load_map

SAMPLE = Path(__file__).parent.parent / "sample_sessions" / "ticket-to-ride-usa-4p.toml"


def hostile_session(name: str) -> str:
    """The USA sample with Grace's first six claimed routes replaced by name."""
    text = SAMPLE.read_text(encoding="utf-8")
    head, grace, rest = text.partition('claimed = [\n')
    lines = rest.split("\n")
    lines[:6] = [f'    "{name}",'] * 6
    return head + grace + "\n".join(lines)


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the characters the name matching normalises (the work it does)."""
    work = [0]
    plain = game_map.normalise

    def normalise(text: str) -> str:
        work[0] += len(text)
        return plain(text)

    monkeypatch.setattr(game_map, "normalise", normalise)
    return work


def test_a_file_of_long_route_names_is_refused_in_work_linear_in_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.toml"
    path.write_text(hostile_session("Denver - " * 2200), encoding="utf-8")
    size = path.stat().st_size
    assert size > 100_000
    work = counted(monkeypatch)
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert 'claimed[1] (line 13)' in out
    # the file's own limit on a text is the field's error (the map's matching then never sees the name)
    assert "19,800 characters in the route's name; at most 200" in out and "6 errors" in out
    # Each long name is normalised at most twice; the quadratic matching normalised ~10⁸ characters.
    assert work[0] <= 2 * size


@pytest.mark.parametrize("kind", ["route", "ticket", "any"])
def test_names_longer_than_any_city_are_refused_before_matching(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    usa = load_map("usa")
    work = counted(monkeypatch)
    text = "Den - " * 5000
    with pytest.raises(MapNameError, match="30,000 characters long, and no city name there is over 15"):
        usa.resolve_pair(text, kind)  # type: ignore[arg-type]
    assert work[0] <= len(text)
    for lookup in (usa.city, usa.neighbours):
        with pytest.raises(MapNameError, match="is not a city of the USA map"):
            lookup("x" * 1000)


def test_the_longest_real_names_still_resolve() -> None:
    usa = load_map("usa")
    longest = max(usa.cities, key=len)
    other = next(c for c in usa.neighbours(longest))
    spaced = f"  {longest.upper()}   \u2014\u2014   {other.lower()}  "
    assert set(usa.resolve_pair(spaced, "route")) == {longest, other}
    assert usa.city(longest + "  ") == longest
