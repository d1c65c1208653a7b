"""The field-by-field merge of live sessions (scorekeeper.merge): properties over generated sessions and edits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.merge import fields, from_fields, merge, rebase
from scorekeeper.session import Round, Session

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
    assert one.session is not None and two.session is not None
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
        assert result.session is not None  # one side left the count as it was, or both made it the same
        assert result.session.round(number).entry(player)[key]["count"] == (two if one == was else one)
        return
    assert result.session is None and (("sub", number, player, key, "count") in result.conflicts)
    kept = merge(base, ours, theirs, prefer_ours=True).session
    assert kept is not None and kept.round(number).entry(player)[key]["count"] == one


def test_both_places_going_on_to_later_rounds_keep_the_later() -> None:
    base = mars({"Ana": {"pairs": {"count": 1}}})
    ours = base.with_value(2, "Ana", "pairs", {"count": 2})
    theirs = base.with_value(3, "Bo", "pairs", {"count": 3})
    result = merge(base, ours, theirs)
    assert result.session is not None and len(result.session.rounds) == 3
    assert result.session.round(2).entry("Ana") == {"pairs": {"count": 2}}
    assert result.session.round(3).entry("Bo") == {"pairs": {"count": 3}}


@settings(max_examples=200, deadline=None)
@given(sessions, edits, edits)
def test_an_undo_step_rebased_keeps_its_own_field_and_takes_the_others(base: Session, mine: tuple,
                                                                       yours: tuple) -> None:
    """The undo history of one place, after another place's edit came in: undoing gives back this place's own
    field only."""
    if mine[1] == yours[1]:
        yours = (yours[0], PLAYERS[(PLAYERS.index(mine[1]) + 1) % 3], *yours[2:])
    mine, yours = inside(base, mine), inside(base, yours)  # a new round is the layout: not undone field by field
    after_mine = applied(base, mine)
    after_both = applied(after_mine, yours)
    undo_step = rebase(base, after_mine, after_both)  # the step "before my edit", with theirs applied
    assert fields(undo_step) == fields(applied(base, yours))


def test_a_rename_while_another_place_types_asks() -> None:
    base = mars({"Ana": {"pairs": {"count": 1}}})
    renamed = base.with_player_renamed("Bo", "Bob")
    typed = base.with_value(1, "Cy", "pairs", {"count": 2})
    result = merge(base, renamed, typed)
    assert result.session is None and ("players",) in result.conflicts


def test_two_cards_of_one_table_typed_in_two_places_merge() -> None:
    """A table of counts is a field per entry: #1 typed here, #2 there, for the same player."""
    base = Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),))
    ours = base.with_value(1, "Ana", "attractions", {"1": 1})
    theirs = base.with_value(1, "Ana", "attractions", {"2": 2})
    result = merge(base, ours, theirs)
    assert result.session is not None
    assert result.session.round(1).entry("Ana")["attractions"] == {"1": 1, "2": 2}
