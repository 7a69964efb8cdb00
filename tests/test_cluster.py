"""Cluster Diplomacy: the sites, nominations, revealing, Research, Transfer, Mattermission, and the secrets
kept apart (rule decisions in maps/cluster.md; single-phase cases in tests/cases/cluster.json)."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace

import pytest
from adjutant import AdjutantError, Game, GameFileError, OrderError, Result, Unit, load_variant
from adjutant.adjudication.orders import format_order
from adjutant.adjudication.phases import Phase
from adjutant.formats import gamefile
from adjutant.formats.gamefile import dumps, loads
from adjutant.formats.link import decode_link, encode_link
from adjutant.group_play.cluster_views import (
    check_sites,
    distance,
    join_parts,
    mattermission_targets,
    new_game,
    nominations_due,
    place_sites,
    public_data,
    secret_parts,
)
from adjutant.map.variant import available_variants
from adjutant.randomgame import random_game
from adjutant.variants.cluster import Aura, ClusterState
from adjutant.variants.cluster_orders import Transfer
from hypothesis import example, given, settings
from hypothesis import strategies as st

V = load_variant("cluster")


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**63))
def test_every_placement_keeps_rule_6(seed: int) -> None:
    sites = place_sites(V, seed)
    assert check_sites(V, sites) == []
    assert len(sites) == 21 and sorted(sites.values()) == [1] * 7 + [2] * 7 + [3] * 7
    assert all(V.provinces[p].type != "impassable" for p in sites)


def test_placement_is_reproducible_from_its_seed_and_varies_with_it() -> None:
    assert place_sites(V, 7) == place_sites(V, 7)
    assert len({tuple(sorted(place_sites(V, s).items())) for s in range(20)}) == 20


def test_the_checker_finds_each_broken_rule() -> None:
    sites = place_sites(V, 3)
    level1 = [p for p, lv in sites.items() if lv == 1]
    broken = dict(sites)
    # two level-1 sites side by side
    victim = level1[0]
    del broken[victim]
    neighbour = next(n for n in ("ska", "nth", "eng", "bal", "ion") if n not in broken)
    near = next(
        n
        for n in ("den", "nwy", "edi", "lon", "swe", "nap", "tun")
        if n not in broken and distance(V, n, neighbour) == 1
    )
    broken[neighbour] = 1
    broken[near] = 1
    del broken[level1[1]]
    problems = check_sites(V, broken)
    assert any("adjacent" in p for p in problems)
    too_many_at_sea = {p: lv for p, lv in sites.items() if lv != 2}
    for p in ("nao", "nwg", "bar", "mao"):
        too_many_at_sea[p] = 2
    assert any("at sea" in p for p in check_sites(V, too_many_at_sea))


@pytest.mark.parametrize(
    ("site", "goal", "moves"),
    [("lon", "mar", 4), ("lon", "lyo", 4), ("lon", "nth", 1), ("mun", "mos", 3), ("lon", "nap", 5)],
)
def test_distance_counts_moves_across_any_border(site: str, goal: str, moves: int) -> None:
    assert distance(V, site, goal) == moves


def test_mattermission_ends_on_land_or_a_coast_as_in_the_texts_example() -> None:
    fleet = mattermission_targets(V, "lon", "F")
    assert "mar" in fleet  # the text's example: "could Mattermit to Marseilles,
    assert "lyo" not in fleet  # but not to Gulf of Lyons" (4 moves away too: a sea; maps/cluster.md)
    assert not [t for t in fleet if V.provinces[t.split("/")[0]].is_sea]
    assert "nap" not in fleet and "lon" not in fleet and "bre" in fleet and "spa/nc" in fleet
    army = mattermission_targets(V, "lon", "A")
    assert "mar" in army and "lyo" not in army and "nth" not in army


def test_a_mattermission_to_a_sea_is_refused_when_given() -> None:
    g = _game("england F lon", sites={"lon": 3}, knowledge={"england": ("mattermission",)})
    (problem,) = g.add_orders("England: F Lon MAT Lyo")
    assert not problem.kept and "ends on land or a coast" in problem.message


def test_the_variant_is_offered() -> None:
    assert "cluster" in [v for v, _ in available_variants()]


# --- playing: helpers -----------------------------------------------------------------------------


def _game(
    units: str = "",
    *,
    sites: dict[str, int] | None = None,
    auras: dict[str, int] | None = None,
    knowledge: dict[str, tuple[str, ...]] | None = None,
    phase: str = "S1902M",
) -> Game:
    """A game of Cluster at ``phase`` with the units given ("france A bur, germany A mun"), or the
    starting ones, and a Cluster state set by hand."""
    g = new_game(seed=11)
    state = g.position.variant_state
    assert state is not None
    board = dict(g.units)
    if units:
        board = {}
        for item in units.split(","):
            power, t, loc = item.split()
            board[loc.split("/")[0]] = Unit(power, t, loc)
    state = replace(
        state,
        sites=sites if sites is not None else state.sites,
        auras={p: Aura(k) for p, k in (auras or {}).items()},
        knowledge=knowledge or {},
        deferred={},
        started=True,
    )
    g.position = replace(g.position, phase=Phase.parse(phase), units=board, variant_state=state)
    return g


def _play(g: Game, orders: str) -> list[Result]:
    problems = [p for p in g.add_orders(orders) if not p.kept]
    assert problems == []
    return g.adjudicate()[0].results


def _last_results(data: dict) -> list[dict]:  # type: ignore[type-arg]
    """The results of the last phase adjudicated in a game file's history."""
    return next(r["results"] for r in reversed(data["history"]) if not r.get("skipped"))


def _result(results: list[Result], unit: str) -> Result:
    return next(r for r in results if r.unit == unit)


def _state(g: Game) -> ClusterState:
    assert g.position.variant_state is not None
    return g.position.variant_state


# --- orders ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("A Par research", "A par RES"),
        ("A par RES", "A par RES"),
        ("F Lon transfer F North Sea", "F lon TRA F nth"),
        ("F lon TRA nth", "F lon TRA F nth"),
        ("Fleet London mattermit Marseilles", "F lon MAT mar"),
        ("F lon MAT mar", "F lon MAT mar"),
        ("Nominate 3 Paris", "Nominate 3 par"),
        ("nominate 2 later", "Nominate 2 later"),
    ],
)
def test_cluster_orders_read_back_in_canonical_form(text: str, canonical: str) -> None:
    g = _game("england F lon, england F nth, france A par")
    power = "france" if "par" in canonical or "later" in canonical else "england"
    order = g.parse(text, power)
    assert format_order(order) == canonical
    assert g.parse(canonical, power) == order


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("F lon MAT nap", "F lon MAT nap: Naples is more than 4 spaces from London"),
        ("F lon MAT mun", "Munich"),
        ("F lon TRA A yor", "F lon TRA A yor: an aura transfers only to a unit of its own type"),
        ("F lon TRA F lon", "cannot take itself over"),
    ],
)
def test_impossible_transfers_and_mattermissions_are_refused_quoting_the_order(text: str, message: str) -> None:
    g = _game("england F lon, england A yor")
    problems = g.add_orders(text, "england")
    assert len(problems) == 1 and not problems[0].kept
    assert message in str(problems[0])


def test_the_new_orders_exist_only_in_cluster() -> None:
    g = Game.new("standard")
    for text in ("A Par RES", "F Lon TRA F Edi", "F Lon MAT Nth", "Nominate 3 Par"):
        with pytest.raises(OrderError, match="there is no"):
            g.parse(text, "france" if "Par" in text else "england")
    with pytest.raises(OrderError, match="no multiple units"):
        g.nominate("france", 3, "par")


# --- nominations (rule 2) -----------------------------------------------------------------------------


def test_nominations_before_the_first_movement_phase() -> None:
    g = new_game(seed=3)
    assert nominations_due(g)["france"] == [3, 2]
    g.nominate("france", 3, "par")
    g.nominate("france", 3, "mar")  # changed until adjudicated
    assert nominations_due(g)["france"] == [2]
    with pytest.raises(OrderError, match="already nominated the 3 times force unit"):
        g.nominate("france", 2, "mar")
    with pytest.raises(OrderError, match="no unit of France in Berlin"):
        g.nominate("france", 2, "ber")
    with pytest.raises(OrderError, match="no 4 times force unit"):
        g.nominate("france", 4, "par")
    g.nominate("france", 2, None)
    assert "france" not in nominations_due(g)
    g.set_orders("france", "A Mar - Spa")  # orders replaced, nominations kept
    g.nominate("germany", 2, "mun")  # Germany's 3 is left unnamed: deferred
    g.adjudicate()
    state = _state(g)
    assert state.auras == {"spa": Aura(3), "mun": Aura(2)}
    assert state.deferred == {
        **{p: (3, 2) for p in g.variant.powers if p not in ("france", "germany")},
        "france": (2,),
        "germany": (3,),
    }
    with pytest.raises(OrderError, match="was nominated already"):
        g.nominate("france", 3, "bre")
    with pytest.raises(OrderError, match="not built in the last adjustment phase"):
        g.nominate("france", 2, "bre")
    assert nominations_due(g) == {}
    text = dumps(g)
    assert dumps(loads(text)) == text  # the nominations are in the history, replayed


def test_a_deferred_multiple_is_named_on_a_later_build() -> None:
    g = new_game(seed=4)
    g.nominate("france", 2, None)
    g.add_orders("France: A Mar - Spa; F Bre - Mao")
    g.adjudicate()
    g.add_orders("France: F Mao - Por")
    g.adjudicate()
    assert str(g.phase) == "W1901A"
    with pytest.raises(OrderError, match="movement phase"):
        g.nominate("france", 2, "bre")
    g.add_orders("France: Build F Bre; Build A Mar")
    g.adjudicate()
    assert _state(g).fresh == {"france": ("bre", "mar")}
    assert nominations_due(g) == {"france": [3, 2]} or nominations_due(g)["france"] == [3, 2]
    with pytest.raises(OrderError, match="not built in the last adjustment phase"):
        g.nominate("france", 2, "par")
    g.nominate("france", 2, "bre")
    g.adjudicate()
    assert _state(g).auras["bre"] == Aura(2)
    assert 2 not in _state(g).deferred["france"] and 3 in _state(g).deferred["france"]
    assert _state(g).fresh == {}
    text = dumps(g)
    assert dumps(loads(text)) == text


def test_a_multiple_unit_destroyed_is_gone_for_good() -> None:
    g = _game("france A bur, germany A mun, germany A ruh, germany A pic", auras={"bur": 2})
    _play(g, "Germany: A Mun - Bur; A Ruh S A Mun - Bur; A Pic S A Mun - Bur")
    _play(g, "France: A Bur D")
    state = _state(g)
    assert state.auras == {} and "france" not in state.deferred
    g.position = replace(g.position, phase=Phase.parse("F1902M"))
    with pytest.raises(OrderError, match="gone for good"):
        g.nominate("france", 2, None)


# --- strengths travel, and are revealed when used (rules 1, 2) ----------------------------------------


def test_a_multiple_strength_travels_with_its_unit_and_is_revealed_only_when_used() -> None:
    g = _game("france A bur, germany A mun, germany A ruh, germany A kie", auras={"bur": 3})
    _play(g, "France: A Bur - Pic")  # no contest: not used
    assert _state(g).auras == {"pic": Aura(3)}
    assert public_data(g)["cluster"].get("auras") is None
    g.position = replace(g.position, units={**g.units, "bel": Unit("germany", "A", "bel")})
    results = _play(g, "France: A Pic - Bel; Germany: A Ruh S A Bel")  # 3 against 2: used
    assert _result(results, "A pic").success
    assert _state(g).auras == {"bel": Aura(3, revealed=True)}
    assert public_data(g)["cluster"]["auras"] == {"bel": [3, True]}


def test_a_multiple_unit_attacked_but_not_needing_its_strength_stays_hidden() -> None:
    g = _game("france A bur, germany A mun", auras={"bur": 2})
    _play(g, "Germany: A Mun - Bur")  # one against two; one against one would bounce as well
    assert _state(g).auras == {"bur": Aura(2)}
    g2 = _game("france A bur, germany A mun, germany A ruh", auras={"bur": 2})
    _play(g2, "Germany: A Mun - Bur; A Ruh S A Mun - Bur")  # two against two: needed
    assert _state(g2).auras == {"bur": Aura(2, revealed=True)}


# --- research (rule 5.1) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "knowledge", "note"),
    [
        (0, (), "research: no Site of the Ancients in Paris"),
        (1, (), "research: a level-1 Site of the Ancients in Paris"),
        (2, ("transfer",), "research: a level-2 Site of the Ancients in Paris"),
        (3, ("mattermission",), "research: a level-3 Site of the Ancients in Paris"),
    ],
)
def test_research_reports_to_all_and_teaches_its_knowledge(level: int, knowledge: tuple[str, ...], note: str) -> None:
    g = _game("france A par", sites={"par": level} if level else {"bur": 1})
    results = _play(g, "France: A Par RES")
    assert _result(results, "A par").reason == note
    state = _state(g)
    assert state.research == (("S1902M", "par", level),)
    assert state.knowledge.get("france", ()) == knowledge
    assert state.found == {"france": {"par": level}}
    public = public_data(g)
    assert public["cluster"]["research"] == [["S1902M", "par", level]]
    shown = _last_results(public)[0]
    assert shown["order"] == "A par H" and shown["reason"] == note
    assert "knowledge" not in public["cluster"]


def test_research_by_a_dislodged_unit_learns_nothing() -> None:
    g = _game("france A par, germany A bur", sites={"par": 2})
    results = _play(g, "France: A Par RES; Germany: A Bur - Par")
    assert not _result(results, "A par").success
    assert _state(g).research == () and _state(g).knowledge == {}


# --- transfer (rule 5.2) -------------------------------------------------------------------------------


def _transferred() -> Game:
    g = _game(
        "france A bur, germany A mun, germany A ruh",
        sites={"bur": 2},
        auras={"bur": 3},
        knowledge={"france": ("transfer",)},
        phase="S1901M",
    )
    results = _play(g, "France: A Bur TRA A Mun; Germany: A Mun H")
    assert _result(results, "A bur").reason == "transfer: took over A mun"
    return g


def test_transfer_lifecycle_a_triple_aura_lasts_two_years_in_a_normal_host() -> None:
    g = _transferred()
    (t,) = _state(g).transferees
    assert (t.power, t.host, t.original, t.value, t.host_level) == ("france", "mun", "bur", 2, 1)
    assert _state(g).strengths()["mun"] == 2
    # the host follows France's orders; the original stands
    _play(g, "France: A Mun - Tyr\nGermany: A Mun - Boh")
    assert g.units["tyr"].power == "germany" and "boh" not in g.units
    (t,) = _state(g).transferees
    assert t.host == "tyr"
    _play(g, "")  # W1901A
    # no order from France: the host follows Germany's (the hand-back); the aura is worth 1 from S1902
    _play(g, "Germany: A Tyr - Boh")
    assert "boh" in g.units and _state(g).transferees[0].value == 1
    _play(g, "")  # F1902M
    _play(g, "")  # W1902A
    # S1903: worth 0, below the host's level: the aura dies, and the original unit with it; the host lives on,
    # its own again (it carries out Germany's order, not France's)
    results = _play(g, "France: A Boh - Mun\nGermany: A Boh - Sil")
    assert "bur" not in g.units and "boh" not in g.units and g.units["sil"].power == "germany"
    assert _result(results, "A boh").success
    assert _result(results, "A bur").reason.startswith("destroyed")
    assert _state(g).transferees == () and "bur" not in _state(g).auras and _state(g).strengths() == {}
    public = public_data(g)
    assert "transfer" not in json.dumps(public)
    assert [r.get("reason") for r in _last_results(public) if "destroyed" in r.get("reason", "")] == ["destroyed"]


def test_the_host_has_the_transferees_strength_from_the_transfer_but_its_owners_order() -> None:
    """The transfer is made before movement: in its own phase the host already stands with the aura's worth
    (here 2: it holds against an attack of 2), and carries out its owner's order (France's order for it, given
    before the transfer, does not count)."""
    g = _game(
        "france A bur, germany A mun, austria A boh, austria A tyr",
        sites={"bur": 2}, auras={"bur": 3}, knowledge={"france": ("transfer",)}, phase="S1901M",
    )
    results = _play(g, "France: A Bur TRA A Mun\nGermany: A Mun H\nAustria: A Boh - Mun; A Tyr S A Boh - Mun")
    assert _result(results, "A bur").reason == "transfer: took over A mun"
    assert g.units["mun"].power == "germany" and not g.position.dislodged
    assert not _result(results, "A boh").success


def test_a_transferee_may_move_out_of_its_host_before_its_aura_drops() -> None:
    """Rule 5.2: the drop comes "after transfers, but before movement (thus giving the transferee a chance to
    move out)": a host on a site, ordered by its transferee's power, transfers the aura on to another unit,
    for one more level; the host it leaves is its owner's again."""
    g = _transferred()
    g.position = replace(g.position, variant_state=replace(_state(g), sites={**_state(g).sites, "mun": 1}))
    results = _play(g, "France: A Mun TRA A Ruh\nGermany: A Mun H")
    assert _result(results, "A mun").reason == "transfer: took over A ruh"
    (t,) = _state(g).transferees
    assert (t.power, t.host, t.original, t.value, t.host_level, t.since) == ("france", "ruh", "bur", 1, 1, "F1901M")
    assert _state(g).controller("mun") is None and _state(g).strengths() == {"ruh": 1, "bur": 3}
    _play(g, "")  # W1901A
    _play(g, "France: A Ruh - Kie")  # S1902: no drop yet (the aura came into this host in the fall)
    assert g.units["kie"].power == "germany" and _state(g).transferees[0].value == 1


def test_the_transferees_power_is_offered_the_transfer_out_of_its_host() -> None:
    """The order menus (adjutant.legal.possible_orders) offer the transferee's power, once it knows the
    site its host stands on, a transfer of the host into each other army but the aura's own original (A Bur,
    which the transfer refuses); the offered order, given, moves the aura out. Nothing is offered while the
    site is unknown to it, nor to the host's owner."""
    from adjutant.legal import possible_orders

    g = _transferred()
    state = replace(_state(g), sites={**_state(g).sites, "mun": 1})
    g.position = replace(g.position, variant_state=state)
    assert not [o for o in possible_orders(g, "mun") if isinstance(o, Transfer)]  # France has not found mun
    g.position = replace(g.position, variant_state=replace(state, found={"france": {"mun": 1}}))
    out = [o for o in possible_orders(g, "mun") if isinstance(o, Transfer)]
    assert [format_order(o) for o in out] == ["A mun TRA A ruh"]
    assert {o.unit.power for o in out} == {"france"}  # France's orders, for the host it commands
    back = copy.deepcopy(g)
    assert not back.add_orders("A mun TRA A bur", "france")
    assert _result(back.adjudicate()[0].results, "A mun").reason.startswith("transfer fails")
    assert not g.add_orders(format_order(out[0]), "france")
    results = g.adjudicate()[0].results
    assert _result(results, "A mun").reason == "transfer: took over A ruh"


def test_only_the_transferee_moves_a_host_out_and_not_below_strength_two() -> None:
    g = _transferred()
    g.position = replace(g.position, variant_state=replace(_state(g), sites={**_state(g).sites, "mun": 1}))
    results = _play(g, "Germany: A Mun TRA A Ruh")  # the host's owner: its own unit is a normal one
    assert _result(results, "A mun").reason.startswith("transfer fails")
    assert _state(g).transferees[0].host == "mun"


def test_the_original_unit_only_stands() -> None:
    g = _transferred()
    problems = g.add_orders("France: A Bur - Par")
    assert problems and problems[0].kept and "its aura is away" in problems[0].message
    results = g.adjudicate()[0].results
    assert "bur" in g.units and not _result(results, "A bur").success


def test_the_legal_orders_of_an_original_unit_are_its_stand_alone() -> None:
    """The order menus (adjutant.legal.possible_orders) offer only what the game takes as legal: an original
    unit, whose aura is away, is offered its hold and nothing else (a move would be kept as illegal)."""
    from adjutant.legal import possible_orders

    g = _transferred()
    assert [format_order(o) for o in possible_orders(g, "bur")] == ["A bur H"]
    assert "A ruh - kie" in [format_order(o) for o in possible_orders(g, "ruh")]


def test_a_transferee_discovers_the_site_it_finishes_a_turn_on() -> None:
    g = _transferred()
    g.position = replace(g.position, variant_state=replace(_state(g), sites={**_state(g).sites, "tyr": 3}))
    _play(g, "France: A Mun - Tyr")
    assert _state(g).knowledge["france"] == ("mattermission", "transfer")
    assert _state(g).found["france"]["tyr"] == 3
    assert _state(g).research == ()  # secret: not reported


def test_a_host_destroyed_takes_its_original_with_it() -> None:
    g = _transferred()
    austrians = {p: Unit("austria", "A", p) for p in ("boh", "sil", "tyr")}
    g.position = replace(g.position, units={**g.units, **austrians})
    _play(g, "Austria: A Boh - Mun; A Sil S A Boh - Mun; A Tyr S A Boh - Mun")
    assert g.phase.kind == "retreat"
    _play(g, "France: A Mun D")
    assert "bur" not in g.units and _state(g).transferees == ()


# --- mattermission (rule 5.3) ----------------------------------------------------------------------------


def test_mattermission_from_london_and_collisions_in_a_game() -> None:
    g = _game(
        "england F lon, france F bre, france A pic",
        sites={"lon": 3, "bre": 1},
        knowledge={"england": ("mattermission",), "france": ("mattermission",)},
    )
    results = _play(g, "England: F Lon MAT Mar")
    assert _result(results, "F lon").success and g.units["mar"].power == "england"
    public = public_data(g)
    assert _last_results(public)[1]["order"] == "F lon - mar"
    g = _game(
        "england F lon, france F bre, france A pic",
        sites={"lon": 3, "bre": 1},
        knowledge={"england": ("mattermission",), "france": ("mattermission",)},
    )
    results = _play(g, "England: F Lon MAT Bel\nFrance: F Bre MAT Bel; A Pic - Bel")
    assert set(g.units) == set()
    assert all(r.reason.startswith("destroyed") for r in results)


# --- the secrets kept apart -----------------------------------------------------------------------------


def _random_cluster_game(seed: int, years: int) -> Game:
    g = new_game(seed)
    for g in random_game("cluster", seed, years):
        provinces = [u.province for u in g.units.values()]
        assert len(provinces) == len(set(provinces))
        state = _state(g)
        assert set(state.auras) <= set(g.units)
        assert all(t.host in (g.units if not t.retreating else g.dislodged_units()) for t in state.transferees)
    return g


def _secrets_in(g: Game, text: str, power: str | None) -> list[str]:
    """The secrets of ``g`` that appear in ``text`` (those of other powers than ``power``)."""
    state = _state(g)
    found = []
    reported = {(p, lv) for _, p, lv in state.research}
    reported |= set(state.found.get(power, {}).items()) if power is not None else set()
    if re.search(rf"\b{state.seed}\b", text):
        found.append("seed")
    for prov, lv in state.sites.items():
        if (prov, lv) not in reported and f'"{prov}": {lv}' in text:
            found.append(f"site {prov}")
    for prov, a in state.auras.items():
        # written [level, revealed]: an unrevealed one shows as false (a revealed one at the same place in an
        # earlier snapshot may have been another unit)
        if not a.revealed and g.units[prov].power != power and f'"{prov}": [{a.level}, false]' in text:
            found.append(f"aura {prov}")
    for p, known in state.knowledge.items():
        if p != power and known and f'"{p}": ["{known[0]}' in text:
            found.append(f"knowledge {p}")
    # a part lists its own power's transferees (written [power, host, ...]); another power's is a secret
    for t in state.transferees:
        if t.power != power and f'["{t.power}", "{t.host}"' in text:
            found.append(f"transferee {t.power} {t.host}")
    if "Nominate" in text or '"deferred"' in text and power is None:
        found.append("nominations")
    return found


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=10_000, max_value=2**62))
@example(459528)  # a revealed 3x unit left the Baltic and an unrevealed one came in
@example(11470)  # three powers have transferees: each part lists its own
def test_public_data_and_each_part_hold_only_their_own_secrets(seed: int) -> None:
    g = _random_cluster_game(seed, 4)
    public = public_data(g)
    text = json.dumps(public)
    assert _secrets_in(g, text, None) == []
    revealed = {prov: [a.level, True] for prov, a in _state(g).auras.items() if a.revealed}
    assert public["cluster"].get("auras", {}) == revealed
    for key in ("sites", "seed", "knowledge", "found", "deferred", "transferees"):
        assert f'"{key}"' not in text
    parts = secret_parts(g)
    for power in g.variant.powers:
        assert _secrets_in(g, json.dumps(parts[power]), power) == []
    # each view reads back, and the game master's part restores the game exactly
    assert dumps(join_parts(public, [parts["gm"]])) == dumps(g)
    assert gamefile.to_data(loads(json.dumps(public))) == public
    for power in g.variant.powers:
        view = join_parts(public, {power: parts[power]})
        assert gamefile.to_data(gamefile.from_data(gamefile.to_data(view))) == gamefile.to_data(view)
        mine = {p for p, u in g.units.items() if u.power == power}
        assert {p for p in _state(g).auras if p in mine} <= set(_state(view).auras)


def test_parts_of_another_game_or_phase_are_refused() -> None:
    g = _transferred()
    other = new_game(seed=2)
    public = public_data(g)
    with pytest.raises(GameFileError, match="another game"):
        join_parts(public, [secret_parts(other)["gm"]])
    parts = secret_parts(g)
    with pytest.raises(GameFileError, match="not that holder's"):
        join_parts(public, {"germany": parts["france"]})
    view = join_parts(public, [parts["france"]])
    assert _state(view).transferees[0].host == "mun" and _state(view).view == "france"
    with pytest.raises(AdjutantError, match="for display"):
        view.adjudicate()
    # France orders the host in its own view
    assert view.add_orders("A Mun - Tyr", "france") == []
    _play(g, "")
    with pytest.raises(GameFileError, match="from F1901M"):
        join_parts(public_data(g), [parts["france"]])


def test_a_hostile_public_part_fails_with_a_game_file_error() -> None:
    public = public_data(new_game(seed=5))
    for bad in (
        {**public, "cluster": {"game": "x", "view": "public", "auras": {"par": "3"}}},
        {**public, "snapshots": [1]},
        {**public, "units": {"france": ["Army Paris"]}},
        {**public, "cluster": []},
        [],
    ):
        with pytest.raises(GameFileError):
            join_parts(bad, [])


# --- a seeded soak ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_random_cluster_games_never_break_and_round_trip(seed: int) -> None:
    g = _random_cluster_game(seed, 6)
    text = dumps(g)
    assert dumps(loads(text)) == text
    assert dumps(decode_link(encode_link(g))) == text
    public = public_data(g)
    assert gamefile.to_data(decode_link(encode_link(loads(json.dumps(public))))) == public
    while g.history:  # undo all the way, with the positions as they were
        last = max(i for i, r in enumerate(g.history) if not r.skipped)
        before = g.position_at(last)
        g.undo()
        assert g.position == before


def test_cluster_game_files_and_views_follow_the_published_schema() -> None:
    from pathlib import Path

    import adjutant
    import jsonschema

    schema = json.loads((Path(adjutant.__file__).parent / "game.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    g = _random_cluster_game(3, 2)
    for data in (
        json.loads(dumps(g)),
        public_data(g),
        gamefile.to_data(join_parts(public_data(g), [secret_parts(g)["italy"]])),
    ):
        validator.validate(data)
    assert json.loads(dumps(g))["version"] == 2 and json.loads(dumps(Game.new("standard")))["version"] == 1


def test_a_view_that_calls_itself_the_game_masters_game_is_refused() -> None:
    # a view holds no sites or seed: were it read as the whole game, it could be adjudicated without them
    g = new_game(seed=3)
    g.add_orders("France: A Par - Bur")
    g.adjudicate()
    forged = public_data(g)
    forged["view"] = forged["cluster"]["view"] = "gm"
    with pytest.raises(GameFileError, match="the view does not match its cluster section"):
        gamefile.from_data(forged)
