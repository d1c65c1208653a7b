"""Edits as operations on fields (scorekeeper.walk.merge): one place's edit applied to the file as another place left
it — properties over generated sessions and edits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.model.session import Round, Session
from scorekeeper.walk.merge import Applied, apply, diff, fields, from_fields, inverse

PLAYERS = ("Ana", "Bo", "Cy")
KEYS = ("pairs", "character", "occupancy")


def mars(*rounds: dict) -> Session:
    return Session(game="ticket-to-mars", players=PLAYERS, rounds=tuple(Round(players=r) for r in rounds))


counts = st.fixed_dictionaries({"count": st.integers(0, 9)}, optional={"each": st.integers(1, 5)})
entries = st.dictionaries(st.sampled_from(KEYS), counts, max_size=3)
rounds = st.dictionaries(st.sampled_from(PLAYERS), entries, max_size=3)
sessions = st.builds(lambda rs, title: Session(game="ticket-to-mars", players=PLAYERS, title=title,
                                               rounds=tuple(Round(players=r) for r in rs)),
                     st.lists(rounds, min_size=1, max_size=3), st.one_of(st.none(), st.text(max_size=5)))

# An edit: (round number, player, key, value or None to remove it)
edits = st.tuples(st.integers(1, 3), st.sampled_from(PLAYERS), st.sampled_from(KEYS), st.one_of(st.none(), counts))


def inside(session: Session, edit: tuple) -> tuple:
    """The edit moved into a round the session has."""
    return (min(edit[0], len(session.rounds)), *edit[1:])


def merge(base: Session, ours: Session, theirs: Session, *, prefer_ours: bool = False) -> Applied:
    """Our edit (base to ours), as operations, applied to the file as the other place left it (theirs)."""
    return apply(theirs, diff(base, ours), force=prefer_ours)


def applied(session: Session, edit: tuple) -> Session:
    number, player, key, value = edit
    return session.with_value(number, player, key, value)


@settings(max_examples=300, deadline=None)
@given(sessions)
def test_fields_and_back_are_the_same_session(session: Session) -> None:
    assert from_fields(fields(session)) == session


@settings(max_examples=300, deadline=None)
@given(sessions, edits, edits)
def test_edits_of_different_players_are_both_kept_whichever_merges(base: Session, mine: tuple, yours: tuple) -> None:
    """Two places edit different players' fields: the merge holds both edits, in either order."""
    if mine[1] == yours[1]:
        yours = (yours[0], PLAYERS[(PLAYERS.index(mine[1]) + 1) % 3], *yours[2:])
    ours, theirs = applied(base, mine), applied(base, yours)
    one, two = merge(base, ours, theirs), merge(base, theirs, ours)
    assert not one.conflicts and not two.conflicts
    both = applied(applied(base, mine), yours)
    assert fields(one.session) == fields(both) == fields(two.session)


@settings(max_examples=300, deadline=None)
@given(sessions, edits)
def test_a_side_that_changed_nothing_takes_the_other(base: Session, edit: tuple) -> None:
    changed = applied(base, edit)
    assert merge(base, base, changed).session == changed
    assert merge(base, changed, base).session == changed
    assert merge(base, changed, changed).session == changed


@settings(max_examples=300, deadline=None)
@given(sessions, edits, st.integers(0, 9), st.integers(0, 9))
def test_the_same_field_changed_two_ways_conflicts_unless_mine_is_preferred(base: Session, edit: tuple,
                                                                           one: int, two: int) -> None:
    number, player, key, _ = edit
    number = min(number, len(base.rounds))
    ours = base.with_value(number, player, key, {"count": one})
    theirs = base.with_value(number, player, key, {"count": two})
    result = merge(base, ours, theirs)
    was = (base.round(number).entry(player).get(key) or {}).get("count")
    if one == two or was in (one, two):
        assert not result.conflicts  # one side left the count as it was, or both made it the same
        assert result.session.round(number).entry(player)[key]["count"] == (two if one == was else one)
        return
    assert ("sub", number, player, key, "count") in result.conflicts
    assert result.session.round(number).entry(player)[key]["count"] == two  # theirs stays until the user answers
    kept = merge(base, ours, theirs, prefer_ours=True).session
    assert kept.round(number).entry(player)[key]["count"] == one


def test_both_places_going_on_to_later_rounds_keep_the_later() -> None:
    base = mars({"Ana": {"pairs": {"count": 1}}})
    ours = base.with_value(2, "Ana", "pairs", {"count": 2})
    theirs = base.with_value(3, "Bo", "pairs", {"count": 3})
    result = merge(base, ours, theirs)
    assert not result.conflicts and len(result.session.rounds) == 3
    assert result.session.round(2).entry("Ana") == {"pairs": {"count": 2}}
    assert result.session.round(3).entry("Bo") == {"pairs": {"count": 3}}


@settings(max_examples=300, deadline=None)
@given(sessions, edits, edits)
def test_undoing_my_edit_after_theirs_gives_back_mine_only(base: Session, mine: tuple, yours: tuple) -> None:
    """One place's edit, another place's edit of another player, then the first place's undo (its inverse
    operations): the file is as if only the other place had edited — a round one made and the other filled stays."""
    if mine[1] == yours[1]:
        yours = (yours[0], PLAYERS[(PLAYERS.index(mine[1]) + 1) % 3], *yours[2:])
    after_mine = applied(base, mine)
    both = apply(after_mine, diff(after_mine, applied(after_mine, yours)))
    undone = apply(both.session, inverse(apply(base, diff(base, after_mine)).applied))
    assert not undone.conflicts
    expected = applied(base, yours)
    assert {k: v for k, v in fields(undone.session).items() if k[0] in ("field", "sub")} == \
        {k: v for k, v in fields(expected).items() if k[0] in ("field", "sub")}


def test_a_rename_while_another_place_types_another_player_keeps_both() -> None:
    base = mars({"Ana": {"pairs": {"count": 1}}})
    renamed = base.with_player_renamed("Bo", "Bob")
    typed = base.with_value(1, "Cy", "pairs", {"count": 2})
    result = merge(base, renamed, typed)
    assert not result.conflicts and result.session.players == ("Ana", "Bob", "Cy")
    assert result.session.round(1).entry("Cy") == {"pairs": {"count": 2}}


def test_a_rename_while_another_place_types_that_player_asks() -> None:
    base = mars({"Bo": {"pairs": {"count": 1}}})
    renamed = base.with_player_renamed("Bo", "Bob")
    typed = base.with_value(1, "Bo", "pairs", {"count": 2})
    assert ("sub", 1, "Bo", "pairs", "count") in merge(base, renamed, typed).conflicts


def test_two_cards_of_one_table_typed_in_two_places_merge() -> None:
    """A table of counts is a field per entry: #1 typed here, #2 there, for the same player."""
    base = Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),))
    ours = base.with_value(1, "Ana", "attractions", {"1": 1})
    theirs = base.with_value(1, "Ana", "attractions", {"2": 2})
    result = merge(base, ours, theirs)
    assert not result.conflicts
    assert result.session.round(1).entry("Ana")["attractions"] == {"1": 1, "2": 2}
