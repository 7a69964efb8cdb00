"""Games: phases in sequence, retreats, builds, victory, undo; the game file and the link; soaks."""

from __future__ import annotations

import json

import pytest
from adjutant import (
    AdjutantError,
    Game,
    GameFileError,
    OrderCheck,
    OrderError,
    Position,
    decode_link,
    dumps,
    encode_link,
    load_variant,
    loads,
)
from adjutant.adjudication.orders import Move, Unit, format_order
from adjutant.map.variant import available_variants
from adjutant.randomgame import random_game
from adjutant.variants.cluster_orders import Nominate
from hypothesis import given, settings
from hypothesis import strategies as st


def play_scripted() -> Game:
    g = Game.new("standard")
    assert (
        g.add_orders(
            """France:
        A Par - Gas
        F Bre - Mao
        A Mar S A Par - Gas
        Germany: A Mun - Bur"""
        )
        == []
    )
    g.adjudicate()
    assert str(g.phase) == "F1901M"
    g.add_orders("France: A Gas - Bur; A Mar S A Gas - Bur; F Mao - Por")
    g.adjudicate()
    assert str(g.phase) == "F1901R"
    assert [str(d.unit) for d in g.position.dislodged] == ["A bur"]
    assert g.orders_due() == {"germany": 1}
    problems = g.add_orders("Germany: A Bur - Gas")
    assert [p.message for p in problems] == ["the attack came from Gascony"] and problems[0].kept
    assert g.add_orders("Germany: A Bur - Ruh") == []
    g.adjudicate()
    assert str(g.phase) == "W1901A"
    assert g.adjustments() == {"france": 1}
    assert g.orders_due() == {"france": 1}
    g.add_orders("France: Build A Par")
    g.adjudicate()
    return g


def test_a_game_through_a_retreat_and_a_build() -> None:
    g = play_scripted()
    assert str(g.phase) == "S1902M"
    assert g.units["ruh"].power == "germany" and g.units["bur"].power == "france"
    assert g.units["par"].power == "france" and g.position.centres["por"] == "france"
    assert g.centre_counts()["france"] == 4 and g.unit_counts()["france"] == 4
    retreat = g.history[3]
    assert str(retreat.phase) == "F1901R" and retreat.results[0].success


def test_phases_with_nothing_to_decide_are_recorded_and_skipped() -> None:
    g = Game.new("standard")
    records = g.adjudicate()
    assert [str(r.phase) for r in records] == ["S1901M", "S1901R"]
    assert records[1].skipped
    records = g.adjudicate()
    assert [str(r.phase) for r in records] == ["F1901M", "F1901R", "W1901A"]
    assert str(g.phase) == "S1902M"


def test_undo_gives_the_orders_back() -> None:
    g = play_scripted()
    before = dumps(g)
    g.adjudicate()
    g.undo()
    assert dumps(g) == before
    record = g.undo()  # the winter build
    assert str(record.phase) == "W1901A" and str(g.phase) == "W1901A"
    assert g.written_orders() == {"france": ["Build A par"]}
    empty = Game.new("standard")
    with pytest.raises(AdjutantError, match="nothing to undo"):
        empty.undo()


def test_illegal_build_and_removal_reasons() -> None:
    g = play_scripted()
    g.undo()
    g.clear_orders()
    problems = g.add_orders("Germany: Build A Ber")
    assert [p.message for p in problems] == ["Germany has no builds or removals due"]
    assert not problems[0].kept
    g.add_orders("France: Build A Bre; Build A Mar")
    g.adjudicate()
    results = {r.order: (r.success, r.reason) for r in g.history[-1].results}
    assert results["Build A bre"] == (True, "")
    assert results["Build A mar"] == (False, "illegal: Marseilles is occupied")


def test_victory_and_draw() -> None:
    g = Game.new("standard")
    owner = "france"
    for c in sorted(g.variant.centres)[:18]:
        g.position.centres[c] = owner
        if c in g.units and g.units[c].power != owner:
            del g.units[c]
    g.position = g.position.__class__(g.phase.__class__(1901, "fall", "movement"), g.units, g.position.centres)
    g.adjudicate()
    assert g.winner == "france"
    with pytest.raises(AdjutantError, match="over"):
        g.adjudicate()
    h = Game.new("standard")
    h.declare_draw(["england", "france"])
    assert h.over and loads(dumps(h)).draw == ("england", "france")


def test_game_file_round_trip_and_schema_fields() -> None:
    g = play_scripted()
    g.add_orders("England: F Lon - Nth")
    text = dumps(g)
    data = json.loads(text)
    assert data["format"] == "adjutant-game" and data["version"] == 1 and data["variant"] == "standard"
    assert data["orders"] == {"england": ["F lon - nth"]}
    again = loads(text)
    assert dumps(again) == text


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d.update(format="other"), "not an Adjutant game file"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(variant="nowhere"), "unknown variant 'nowhere'"),
        (lambda d: d.update(phase="S1950M"), "its history leads to S1902M"),
        (lambda d: d["units"]["france"].append("A mun"), "units in the file do not match"),
        (lambda d: d["history"][0]["orders"]["france"].append("A Xyz - Par"), "'xyz' is not a province"),
        (lambda d: d["history"].pop(), "history leads to W1901A"),
        (lambda d: d.update(orders={"narnia": []}), "'narnia' is not a power"),
        (lambda d: d.update(history="none"), "history must be a list"),
    ],
)
def test_bad_game_files_are_refused_with_a_reason(mangle, message: str) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(dumps(play_scripted()))
    mangle(data)
    with pytest.raises(GameFileError, match=message):
        loads(json.dumps(data))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_raise_only_game_file_errors(data: bytes) -> None:
    with pytest.raises(GameFileError):
        loads(data)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSONISH)
def test_arbitrary_json_raises_only_game_file_errors(value: object) -> None:
    for data in (value, {"format": "adjutant-game", "version": 1, "variant": "standard", "history": value}):
        with pytest.raises(GameFileError):
            loads(json.dumps(data))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_links_raise_only_game_file_errors(text: str) -> None:
    try:
        decode_link(text)
    except GameFileError as e:
        assert str(e)


@pytest.mark.parametrize("variant", [v for v, _ in available_variants()])
def test_a_link_starts_with_its_variant_and_opens_without_it(variant: str) -> None:
    """The variant's id comes first, readable, for the page to paint the right map before Python starts;
    a link made before that, without it, still opens; a start naming another variant is refused."""
    game = Game.new(variant, seed=3)
    link = encode_link(game)
    named, rest = link.split(".", 1)
    assert named == variant and "." not in rest
    assert dumps(decode_link("#" + link)) == dumps(game) == dumps(decode_link(rest))
    other = "loeb9" if variant != "loeb9" else "standard"
    with pytest.raises(GameFileError, match=f"says it holds a game of '{other}'"):
        decode_link(f"{other}.{rest}")


def test_damaged_links_say_what_is_wrong() -> None:
    link = encode_link(play_scripted())
    named, rest = link.split(".", 1)
    with pytest.raises(GameFileError, match="does not inflate|cut short"):  # (cut where base64url may end)
        decode_link(f"{named}.{rest[: len(rest) // 8 * 4]}")
    with pytest.raises(GameFileError, match="characters"):
        decode_link(link + "<script>")
    with pytest.raises(GameFileError, match="holds no game"):
        decode_link("#")
    # a start naming no variant there is: said so, not that the rest is cut short
    with pytest.raises(GameFileError, match="for a variant Adjutant does not have: unknown variant 'nosuch'"):
        decode_link("#nosuch.abc")


def _random_game(variant: str, seed: int, years: int) -> Game:
    g = Game.new(variant)
    for g in random_game(variant, seed, years):
        provinces = [u.province for u in g.units.values()]
        assert len(provinces) == len(set(provinces)) == len(g.units)
        assert all(k == u.province for k, u in g.units.items())
        assert sum(g.centre_counts().values()) <= len(g.variant.centres)
        assert set(g.position.centres) <= set(g.variant.centres)
    return g


@pytest.mark.parametrize("variant", [vid for vid, _ in available_variants()])
def test_random_soak_and_replay(variant: str) -> None:
    """Seeded random legal orders for years of play: nothing raises, no two units share a province, and
    both the game file and the link reproduce the game exactly."""
    phases = 0
    for seed in range(6):
        g = _random_game(variant, seed, 8)
        phases += len(g.history)
        text = dumps(g)
        assert dumps(loads(text)) == text
        assert dumps(decode_link(encode_link(g))) == text
    assert phases >= 200


def test_game_files_follow_the_published_schema() -> None:
    from pathlib import Path

    import adjutant
    import jsonschema

    schema = json.loads((Path(adjutant.__file__).parent / "game.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    games = [play_scripted(), _random_game("loeb9", 7, 4), Game.new("cline5")]
    games[0].add_orders("England: F Lon - Nth")
    for g in games:
        validator.validate(json.loads(dumps(g)))
    bad = json.loads(dumps(games[0]))
    bad["units"]["france"].append("Army Paris")
    assert not validator.is_valid(bad)


def test_huge_numbers_and_endless_games_are_refused_with_a_reason() -> None:
    with pytest.raises(GameFileError, match="not valid JSON"):
        loads('{"format":"adjutant-game","version":1' + "0" * 5000 + "}")
    import base64
    import zlib

    def link(payload: str) -> str:
        raw = zlib.compress(payload.encode(), 9)[2:-4]
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    with pytest.raises(GameFileError, match="not a game"):
        decode_link(link('{"a":1' + "0" * 5000 + ',"v":"standard","n":0}'))
    with pytest.raises(GameFileError, match="up to 1000"):
        decode_link(link('{"a":1,"v":"cline5","n":5000}'))
    assert str(decode_link(link('{"a":1,"v":"standard","n":4}')).phase) == "S1903M"
    history = [{"phase": "S1901M"}] * 1001
    with pytest.raises(GameFileError, match="up to 1000"):
        loads(json.dumps({"format": "adjutant-game", "version": 1, "variant": "standard", "history": history}))


def test_a_hand_built_order_naming_an_unknown_place_is_refused_and_keeps_the_earlier_order() -> None:
    g = Game.new("standard")
    g.add_orders("France: A Par - Bur")
    with pytest.raises(OrderError, match="'xyz' is not a place on this map"):
        g.add_order(Move(Unit("france", "A", "xyz"), "bur"))
    assert [format_order(o) for o in g.orders_of("france")] == ["A par - bur"]


def _movement_outcome(g: Game) -> tuple[dict[str, list[str]], list[tuple[str, bool, str]]]:
    g.adjudicate()
    record = g.history[0]
    return record.orders, [(r.unit, r.success, r.reason) for r in record.results]


def _give_again(g: Game) -> None:
    g.add_order(g.parse("A Par - Pic", "france"))


def _replace_the_position(g: Game) -> None:
    # the same board in a new position: the orders are checked again in it
    g.position = Position(g.phase, dict(g.units), dict(g.position.centres))
    g.add_orders("France: A Par - Pic")


def _take_back_another_powers_order(g: Game) -> None:
    # England's order for the French army is taken back: France's own order for it stands again
    g.add_order(Move(Unit("england", "A", "par"), "gas"))
    g.clear_orders("england")


def _set_orders(g: Game) -> None:
    g.set_orders("france", "A Par - Pic; F Bre - Mao")


def _clear_one_power(g: Game) -> None:
    g.clear_orders("germany")


def _clear_all_then_give(g: Game) -> None:
    g.clear_orders()
    g.add_orders("France: A Par - Pic; F Bre - Mao")


def _copy(g: Game) -> Game:
    c = g.copy()
    c.add_orders("France: A Par - Pic")
    g.add_orders("France: A Par - Gas")  # (the original's orders change; the copy's stay)
    return c


def _order_for_another_powers_unit(g: Game) -> None:
    # add_order takes what it is given, unchecked: an order for the French army given as England's
    g.add_order(Move(Unit("england", "A", "par"), "pic"))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_give_again, "France: A Par - Pic; F Bre - Mao\nGermany: A Mun - Bur"),
        (_replace_the_position, "France: A Par - Pic; F Bre - Mao\nGermany: A Mun - Bur"),
        (_take_back_another_powers_order, "France: A Par - Bur; F Bre - Mao\nGermany: A Mun - Bur"),
        (_set_orders, "France: A Par - Pic; F Bre - Mao\nGermany: A Mun - Bur"),
        (_clear_one_power, "France: A Par - Bur; F Bre - Mao"),
        (_clear_all_then_give, "France: A Par - Pic; F Bre - Mao"),
        (_copy, "France: A Par - Pic; F Bre - Mao\nGermany: A Mun - Bur"),
    ],
)
def test_the_orders_as_they_stand_are_adjudicated_however_they_were_changed(change, expected) -> None:  # type: ignore[no-untyped-def]
    # the game keeps each order's check from when it was given, and must never adjudicate a stale one
    g = Game.new("standard")
    g.add_orders("France: A Par - Bur; F Bre - Mao\nGermany: A Mun - Bur")
    changed = change(g) or g
    fresh = Game.new("standard")
    assert fresh.add_orders(expected) == []
    assert _movement_outcome(changed) == _movement_outcome(fresh)


def test_an_order_given_for_a_unit_another_power_ordered_is_kept_and_written() -> None:
    g = Game.new("standard")
    g.add_orders("France: A Par - Bur")
    _order_for_another_powers_unit(g)
    g.adjudicate()
    record = g.history[0]
    assert record.orders["france"] == ["A par - bur"] and record.orders["england"] == ["A par - pic"]
    # one order per unit is adjudicated: the one given last
    assert "pic" in g.units and "par" not in g.units and "bur" not in g.units


def _surrounded_in_marseilles() -> Game:
    """Spring 1901: the French army in Marseilles, its three land neighbours held by French armies, is
    dislodged from Piedmont: it has nowhere to retreat."""
    from adjutant.game import Position

    g = Game.new("standard")
    units = {
        "mar": Unit("france", "A", "mar"), "spa": Unit("france", "A", "spa"), "gas": Unit("france", "A", "gas"),
        "bur": Unit("france", "A", "bur"), "pie": Unit("italy", "A", "pie"), "lyo": Unit("italy", "F", "lyo"),
    }
    g.position = Position(g.phase, units, dict(g.position.centres))
    assert g.add_orders("Italy: A Pie - Mar; F Lyo S A Pie - Mar") == []
    return g


def test_a_retreat_phase_where_no_unit_can_retreat_disbands_them_and_goes_on() -> None:
    from adjutant.formats import report

    g = _surrounded_in_marseilles()
    records = g.adjudicate()
    assert [str(r.phase) for r in records] == ["S1901M", "S1901R"]
    assert str(g.phase) == "F1901M" and "mar" not in {d.unit.province for d in g.position.dislodged}
    assert g.units["mar"] == Unit("italy", "A", "mar") and len(g.units) == 5
    retreat = records[1]
    assert retreat.skipped and retreat.orders == {}
    assert [(r.power, r.unit, r.success, r.reason) for r in retreat.results] == [
        ("france", "A mar", False, "no place to retreat: disbanded")
    ]
    assert "France: Army Marseilles.  (*no place to retreat: disbanded*)" in report.results(g.variant, retreat)
    assert "no place to retreat: disbanded" in dumps(g)  # the game file shows the disband too
    g.undo()
    assert str(g.phase) == "S1901M" and g.units["mar"] == Unit("france", "A", "mar")


def test_a_retreat_phase_waits_when_some_unit_can_retreat() -> None:
    g = _surrounded_in_marseilles()
    g.position.units.pop("gas")
    g.adjudicate()
    assert str(g.phase) == "S1901R" and g.orders_due() == {"france": 1}


def test_check_order_says_what_the_rules_make_of_an_order_without_giving_it() -> None:
    g = Game.new("standard")
    assert g.check_order(g.parse("A Par - Bur", "france")) == OrderCheck("legal", "")
    illegal = g.check_order(g.parse("A Par - Mun", "france"))
    assert illegal.verdict == "illegal" and "adjacent" in illegal.reason
    refused = OrderCheck("refused", "there are no multiple units in Standard Diplomacy")
    assert g.check_order(Nominate("france", 2, None)) == refused
    assert g.all_orders() == {}
    # add_orders takes a legal order, and an illegal one with its reason
    problems = g.add_orders("France: A Par - Mun; F Bre - Mao")
    assert [(p.text, p.message, p.kept) for p in problems] == [("France: A Par - Mun", illegal.reason, True)]
    assert [format_order(o) for o in g.orders_of("france")] == ["A par - mun", "F bre - mao"]


def test_place_labels_kept_by_variant_write_each_text_as_worked_out_afresh() -> None:
    """place_labels keeps what it wrote by variant and text (the page writes every order out again at each
    click): each answer, asked once or again, in any variant, is the one worked out afresh, and what it keeps
    for a variant stays within its bound."""
    from adjutant.formats import report

    texts = ["A par - bur", "bounced with A par, F stp/sc (void: no order)", "F lon S F nth", "A Vie H", ""]
    for variant_id in ("standard", "cline5", "loeb9"):
        variant = load_variant(variant_id)
        *_, game = random_game(variant_id, 1, 1)
        texts += [text for record in game.history for orders in record.orders.values() for text in orders]
        texts += [r.reason for record in game.history for r in record.results if r.reason]
        for _ in range(2):
            kept = [report.place_labels(variant, t) for t in texts]
            assert kept == [report.labelled_afresh(variant, t) for t in texts]
    assert report.place_labels(load_variant("standard"), "A bur H") == "A Bur H"
    cline5 = load_variant("cline5")
    assert report.place_labels(cline5, "A bur H") == report.labelled_afresh(cline5, "A bur H")
    variant = load_variant("standard")
    for n in range(report.MOST_LABELLED + 10):
        report.place_labels(variant, f"A par - bur {n}")
    assert len(report.LABELLED[variant]) <= report.MOST_LABELLED
