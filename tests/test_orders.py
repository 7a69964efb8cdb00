"""The order parser: forgiving of form, strict on meaning; and the canonical form it reads back."""

from __future__ import annotations

import re

import pytest
from adjutant import Game, OrderError, available_variants, load_variant
from adjutant.adjudication.orders import Build, find_power, format_order, parse_order, parse_orders
from adjutant.legal import Candidates, adjustment_candidates
from adjutant.map.variant import normalize_name
from hypothesis import given, settings
from hypothesis import strategies as st

V = load_variant("standard")
START = Game.new("standard")

#: (text as written, canonical form)
FORMS = [
    ("F Lon - Nth", "F lon - nth"),
    ("fleet london -> north sea", "F lon - nth"),
    ("F LON TO NTH", "F lon - nth"),
    ("England: F Lon - Nth", "F lon - nth"),
    ("ENG: F lon -> nth", "F lon - nth"),
    ("English F London moves North Sea", "F lon - nth"),
    ("Lon - Nth", "F lon - nth"),
    ("F Lon H", "F lon H"),
    ("F London holds", "F lon H"),
    ("A Par", "A par H"),
    ("A Paris - Burgundy", "A par - bur"),
    ("F Bre - Mid-Atlantic Ocean", "F bre - mao"),
    ("F Bre - MAO", "F bre - mao"),
    ("F Bre – English Channel", "F bre - eng"),
    ("A Mar S A Par - Bur", "A mar S A par - bur"),
    ("A Mar supports A Par -> Burgundy", "A mar S A par - bur"),
    ("A Mar S Par - Bur", "A mar S par - bur"),
    ("F Kie S A Ber", "F kie S A ber"),
    ("F Kie S A Ber H", "F kie S A ber"),
    ("A Lvp - Edi via convoy", "A lvp - edi via convoy"),
    ("A Lvp - Edi VIA", "A lvp - edi via convoy"),
    ("F StP(sc) - Bot", "F stp/sc - bot"),
    ("F stp/sc - bot", "F stp/sc - bot"),
    ("F stp sc - bot", "F stp/sc - bot"),
    ("F St Petersburg (south coast) - Gulf of Bothnia", "F stp/sc - bot"),
    ("F Sev - Bla", "F sev - bla"),
]


@pytest.mark.parametrize(("text", "canonical"), FORMS)
def test_forms(text: str, canonical: str) -> None:
    order = START.parse(text)
    assert format_order(order) == canonical
    assert START.parse(canonical) == order


def test_convoy_and_retreat_and_build_forms() -> None:
    g = Game.new("standard")
    g.add_orders("F Lon - Nth; A Lvp - Yor")
    g.adjudicate()
    assert format_order(g.parse("F Nth C A Yor - Nwy")) == "F nth C A yor - nwy"
    assert format_order(g.parse("F north sea convoys yorkshire to norway")) == "F nth C A yor - nwy"
    assert format_order(g.parse("A Yor - Nth - Nwy")) == "A yor - nwy via convoy"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A Mun - Lon", "Munich is not adjacent to London"),
        ("F Par - Bur", "there is no fleet in Paris"),
        ("France: F Par H", "there is no French fleet in Paris"),
        ("Germany: A Par H", "there is no German army in Paris"),
        ("A Xyz - Par", "'xyz' is not a province of Standard Diplomacy"),
        ("A Par - ", "the destination is missing"),
        ("A Par jumps Bur", "'jumps' is not an order"),
        ("Narnia: A Par H", "'narnia' is not a power"),
        ("F StP(ec) - Bot", "St Petersburg has no ec coast"),
        ("F Lon C F Bre - Bel", "only armies can be convoyed"),
        ("A Par - Bur - ", "the destination is missing"),
        ("Build A Par", "a build order cannot be given in a movement phase"),
        ("", "empty order"),
    ],
)
def test_errors_quote_the_order_and_say_what_is_wrong(text: str, message: str) -> None:
    if message == "Munich is not adjacent to London":
        problems = START.copy().add_orders(text)
        assert [p.message for p in problems] == [message] and problems[0].kept
        return
    with pytest.raises(OrderError) as e:
        START.parse(text)
    assert message in str(e.value)
    assert str(e.value).startswith(text.strip()) or not text.strip()


def test_retreat_phase_refuses_support_and_convoy() -> None:
    g = Game.new("standard")
    g.add_orders("A Mun - Tyr; A Ven - Tyr; A Vie - Tyr")
    with pytest.raises(OrderError, match="a support order cannot be given in a retreat phase"):
        parse_order("A Ser S F Tri - Alb", V, START.units, phase="retreat", dislodged={})


def test_adjustment_forms() -> None:
    for text in ("Build A Par", "B A PAR", "A Par B", "France: build army paris"):
        order = parse_order(text, V, {}, phase="adjustment")
        assert format_order(order) == "Build A par"
    units = START.units
    for text in ("Remove A Par", "A Par D", "A Par disband", "Disband A Paris"):
        assert format_order(parse_order(text, V, units, phase="adjustment")) == "A par D"
    assert format_order(parse_order("England: waive", V, units, phase="adjustment")) == "Waive"
    with pytest.raises(OrderError, match="say which power waives"):
        parse_order("waive", V, units, phase="adjustment")


def test_every_candidate_order_reads_back_to_itself() -> None:
    """The canonical form of every order the map offers parses back to the same order."""
    g = Game.new("standard")
    c = Candidates(g.variant, g.units, "spring")
    count = 0
    for prov in g.units:
        for order in c.of(prov):
            assert g.parse(format_order(order), order.unit.power) == order
            count += 1
    assert count > 200
    for v in ("loeb9", "cline5", "cline6"):
        g = Game.new(v)
        c = Candidates(g.variant, g.units, "spring")
        for prov in g.units:
            for order in c.of(prov):
                assert g.parse(format_order(order), order.unit.power) == order


def test_adjustment_candidates_read_back() -> None:
    g = Game.new("standard")
    g.position = g.position.__class__(g.phase.__class__(1901, "winter", "adjustment"), g.units, g.position.centres)
    for power in g.variant.powers:
        for order in adjustment_candidates(g, power):
            assert g.parse(format_order(order), power) == order


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_order_errors(text: str) -> None:
    for phase in ("movement", "retreat", "adjustment"):
        try:
            parse_order(text, V, START.units, phase=phase, dislodged={})
        except OrderError as e:
            assert str(e)


WORDS = [
    "A",
    "F",
    "par",
    "-",
    "S",
    "C",
    "lon",
    "nth",
    "stp",
    "/",
    "nc",
    "(",
    ")",
    "via",
    "convoy",
    "build",
    ":",
    "England",
    "H",
    "R",
    "D",
    "to",
    "bur",
    "mar",
    "sc",
    "north",
    "coast",
    ";",
    "waive",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=9))
def test_order_like_text_raises_only_order_errors(words: list[str]) -> None:
    text = " ".join(words)
    g = START.copy()
    problems = g.add_orders(text)
    for p in problems:
        assert p.message


@pytest.mark.parametrize("header", ["England", "England:", "england", "ENG", "English", "ENGLAND :"])
def test_a_power_alone_on_a_line_names_whose_orders_follow(header: str) -> None:
    """As the order box's placeholder says: a power's name alone on a line, with or without a colon."""
    g = START.copy()
    assert g.add_orders(f"{header}\nF lon - eng\nA lvp - yor\n\nFrance\nA Par - Bur") == []
    assert {format_order(o) for o in g.orders_of("england")} == {"F lon - eng", "A lvp - yor"}
    assert [format_order(o) for o in g.orders_of("france")] == ["A par - bur"]
    orders, errors = parse_orders(f"{header}\nF lon - eng", V, START.units, power="england")
    assert errors == [] and [format_order(o) for o in orders] == ["F lon - eng"]


def test_a_header_line_for_another_power_is_refused_in_one_powers_box() -> None:
    g = START.copy()
    (problem,) = g.set_orders("england", "France\nA Par - Bur")
    assert "these orders are for France" in problem.message and not problem.kept


def test_a_power_alone_in_one_order_says_it_gives_no_order() -> None:
    with pytest.raises(OrderError, match="a power's name: its orders go after it"):
        START.parse("England")


def test_a_power_named_like_a_province() -> None:
    """Loeb9's Norway and the Cline maps' Persia are powers and provinces. Alone on a line the name is a
    header (the unit there holds without orders anyway); before an order word it is the unit's place;
    before a unit it is the power."""
    g = Game.new("loeb9")
    assert g.add_orders("Norway\nF Swe - Ska") == []
    assert [format_order(o) for o in g.orders_of("norway")] == ["F swe - ska"]
    for text, canonical in [
        ("Norway - Sweden", "A nwy - swe"),
        ("Norway to Sweden", "A nwy - swe"),
        ("Norway H", "A nwy H"),
        ("Norway S F Swe", "A nwy S F swe"),
        ("Norway F Swe - Ska", "F swe - ska"),
        ("Norway: A Nwy - Fin", "A nwy - fin"),
        ("Norway A Norway - Sweden", "A nwy - swe"),
    ]:
        assert format_order(g.parse(text)) == canonical, text
    g = Game.new("cline5")
    assert format_order(g.parse("Persia - Afg")) == "A irn - afg"
    assert g.add_orders("Persia\nA Irn - Afg") == []
    assert [format_order(o) for o in g.orders_of("persia")] == ["A irn - afg"]
    g = Game.new("cline6")
    assert g.add_orders("Persia-Arabia\nA Teh - Irn\nPersia\nA Mec H") == []
    assert {format_order(o) for o in g.orders_of("persia")} == {"A teh - irn", "A mec H"}


@pytest.mark.parametrize("variant_id", [vid for vid, _ in available_variants()])
def test_every_power_is_found_by_each_of_its_names_in_any_case(variant_id: str) -> None:
    variant = load_variant(variant_id)
    for power in variant.powers.values():
        for name in (power.id, power.name, power.adjective, power.abbrev):
            for written in (name, name.upper(), name.lower()):
                found = find_power(variant, written)
                assert found is not None and normalize_name(written) in (
                    normalize_name(found.id), normalize_name(found.name), normalize_name(found.adjective),
                    found.abbrev.lower())
        assert find_power(variant, power.name) is power
    assert find_power(variant, "Atlantis") is None


def test_a_paste_with_a_long_run_of_spaces_is_read_in_one_pass() -> None:
    """A paste is cut into lines and headers in time linear in its length: a line of 300,000 spaces
    between words (a hostile or garbled paste) once took the header patterns' backtracking an hour."""
    g = START.copy()
    gap = " " * 300_000
    assert g.add_orders(f"France{gap}:\nA Par{gap}- Bur\nEngland{gap}\nF Lon - Nth{gap}x") != []
    assert [format_order(o) for o in g.orders_of("france")] == ["A par - bur"]
    assert g.orders_of("england") == ()
    assert [p.kept for p in g.add_orders(f"Germany:{gap}A Ber - Kie")] == []
    assert [format_order(o) for o in g.orders_of("germany")] == ["A ber - kie"]


def test_a_build_without_its_power_is_the_powers_whose_build_site_it_is() -> None:
    """A build order names its power by its place: a home centre, or an extra build site that is no centre
    (Cline VI's Arkangel, Russia's), as the map's click-build gives it with no power named."""
    game = Game.new("cline6")
    game.adjudicate()
    game.adjudicate()
    assert game.phase.kind == "adjustment"
    assert game.parse("Build A ark") == Build("russia", "A", "ark")


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        ("cline5", "'spa' is not a province of Cline 9-Man Diplomacy V: did you mean Castille (cst) or Catalonia"),
        ("cline6", "did you mean Castille (cst) or Catalonia (cat)?"),
        ("loeb9", "'spa' is not a province of Loeb9: did you mean Catalonia (cat), Cordoba (cor) or Navarre (nav)?"),
    ],
)
def test_a_standard_province_a_variant_has_not_names_the_provinces_standing_where_it_stands(
    variant: str, said: str
) -> None:
    with pytest.raises(OrderError) as refused:
        Game.new(variant).parse("A Mar - Spa")
    assert said in str(refused.value)


@pytest.mark.parametrize("variant", [v for v, _ in available_variants()])
def test_a_misspelt_province_names_the_closest_names_of_every_variant(variant: str) -> None:
    """Every province of every variant, its name with two letters swapped, is refused naming it; a name like
    none of the variant's is refused with no guess."""
    v = load_variant(variant)
    game = Game.new(variant)
    for province in v.provinces.values():
        name = province.name
        if len(name) < 6 or " " in name:
            continue
        slip = name[0] + name[2] + name[1] + name[3:]
        if v.lookup(slip) is not None:
            continue
        with pytest.raises(OrderError, match=re.escape(f"{province.name} ({province.id})")):
            game.parse(f"A {slip} - Xqz")
    with pytest.raises(OrderError) as refused:
        game.parse("A Qqqqzzz H")
    assert str(refused.value).endswith(f"'qqqqzzz' is not a province of {v.name}")
