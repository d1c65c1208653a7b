"""The core's light records behave as the standard dataclasses the core used before."""

from __future__ import annotations

import copy
import inspect
import pickle
import subprocess
import sys

import pytest

from scorekeeper.record import FrozenInstanceError, field, record, replace
from scorekeeper.session import Problem, Round, Session


@record(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: dict = field(default_factory=dict)


@record(frozen=True)
class Labelled(Point):
    label: str = ""


@record
class Counter:
    n: int = 0
    seen: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen.append(self.n)


def test_init_defaults_and_factories():
    a, b = Point(1), Point(1)
    assert (a.x, a.y, a.tags) == (1, 0, {}) and a.tags is not b.tags
    assert Point(1, 2, {"k": 1}) == Point(x=1, y=2, tags={"k": 1})
    assert list(inspect.signature(Point).parameters) == ["x", "y", "tags"]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_equality_hash_repr_and_freezing():
    assert Point(1) == Point(1) and Point(1) != Point(2) and Point(1) != Labelled(1)
    assert hash(Problem("x", path="a")) == hash(Problem("x", path="a"))
    with pytest.raises(TypeError):
        hash(Point(1))  # a dict inside: unhashable, as with dataclasses
    assert repr(Labelled(1, label="a")) == "Labelled(x=1, y=0, tags={}, label='a')"
    with pytest.raises(FrozenInstanceError):
        Point(1).x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del Point(1).x  # type: ignore[misc]
    c = Counter(3)
    c.n = 4  # not frozen
    assert c.seen == [3] and Counter.__hash__ is None


def test_replace_copy_and_pickle():
    p = Labelled(1, 2, label="a")
    assert replace(p, label="b") == Labelled(1, 2, label="b") and p.label == "a"
    with pytest.raises(TypeError):
        replace(p, z=1)
    assert copy.deepcopy(p) == p and pickle.loads(pickle.dumps(p)) == p


def test_the_session_model_keeps_its_behaviour():
    s = Session(game="ticket-booth", players=("Ana", "Bo"))
    t = s.with_value(1, "Ana", "tickets", 3)
    assert s.rounds == () and t.round(1) == Round(players={"Ana": {"tickets": 3}}) and t != s
    assert Problem("x", path="a") == Problem("x", path="a") and len({Problem("x"), Problem("x")}) == 1


def test_scoring_a_session_imports_no_dataclasses():
    code = ("import sys; from scorekeeper.cli import main; main(['score', 'sample_sessions/ticket-booth-3p.toml']);"
            "assert 'dataclasses' not in sys.modules and 'inspect' not in sys.modules, 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                   cwd=__import__("pathlib").Path(__file__).resolve().parent.parent)


@record(frozen=True)
class Indexed:
    words: tuple[str, ...]
    lookup: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lookup", {w: i for i, w in enumerate(self.words)})


def test_a_field_without_init_is_worked_out_and_left_out_of_equality_and_repr():
    a = Indexed(("x", "y"))
    assert a.lookup == {"x": 0, "y": 1} and a == Indexed(("x", "y")) and hash(a) == hash(Indexed(("x", "y")))
    assert repr(a) == "Indexed(words=('x', 'y'))" and replace(a, words=("z",)).lookup == {"z": 0}
    with pytest.raises(TypeError):
        Indexed(("x",), {})  # type: ignore[call-arg]


def test_an_init_is_made_for_the_class_first_instantiated_whichever_it_is():
    @record
    class Base:
        a: int

    @record
    class Child(Base):
        b: int = 2

    class Plain(Base):  # not a record of its own: Base's __init__
        pass

    assert (Child(1).a, Child(1).b, Plain(3).a, Base(4).a) == (1, 2, 3, 4)
    assert not hasattr(Plain(3), "b") and Child(1) != Base(1)
