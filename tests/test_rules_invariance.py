"""The rules know no names: renaming the provinces and the powers of a variant, or giving the orders in
another order, never changes an adjudication. (The resolver indexes orders by their provinces' ids, so a
rule decided one order at a time would change with the names.)"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest
from adjutant.adjudication.orders import Unit, UnitOrder, parse_order
from adjutant.adjudication.resolver import adjudicate_movement
from adjutant.map.variant import Variant, build_variant, load_variant, province_of, variant_data
from adjutant.randomgame import random_game
from case_runner import CASES, board, load_cases, parse_all, unit_of
from hypothesis import example, given, settings
from hypothesis import strategies as st

VARIANTS = ["standard", "cline5", "cline6", "loeb9", "coast_running", "cluster"]


class Renaming:
    """A variant with every province and power given a new name, in a shuffled order, and the way there and
    back for units and orders."""

    def __init__(self, variant_id: str, seed: int) -> None:
        rng = random.Random(seed)
        data, source = variant_data(variant_id)
        old = [p["id"] for p in data["provinces"]]
        fresh = [f"q{k:03d}" for k in range(len(old))]
        rng.shuffle(fresh)
        self.province = dict(zip(old, fresh, strict=True))
        powers = [p["id"] for p in data["powers"]]
        names = [f"power{k}" for k in range(len(powers))]
        rng.shuffle(names)
        self.power = dict(zip(powers, names, strict=True))
        self.back_province = {b: a for a, b in self.province.items()}
        self.back_power = {b: a for a, b in self.power.items()}
        new = dict(data)
        new["provinces"] = [{**p, "id": self.province[p["id"]]} for p in data["provinces"]]
        rng.shuffle(new["provinces"])
        new["powers"] = [
            {
                **p,
                "id": self.power[p["id"]],
                "home_centres": [self.place(h) for h in p.get("home_centres", [])],
                "units": [f"{u.split()[0]} {self.place(u.split()[1])}" for u in p.get("units", [])],
                "build_sites": [
                    {**b, "province": self.place(b["province"]), "requires": [*map(self.place, b.get("requires", []))]}
                    for b in p.get("build_sites", [])
                ],
            }
            for p in data["powers"]
        ]
        new["adjacencies"] = {who: [self.edge(e) for e in edges] for who, edges in data["adjacencies"].items()}
        new["edge_kinds"] = {self.edge(e): kind for e, kind in data.get("edge_kinds", {}).items()}
        if "cluster" in data:
            countries = data["cluster"]["countries"]
            new["cluster"] = {
                **data["cluster"],
                "countries": {self.power.get(c, c): [self.place(p) for p in ps] for c, ps in countries.items()},
            }
        self.variant = build_variant(new, source)

    def place(self, location: str, table: Mapping[str, str] | None = None) -> str:
        prov, slash, coast = location.partition("/")
        return (table or self.province)[prov] + slash + coast

    def edge(self, text: str) -> str:
        return " ".join(self.place(x) for x in text.split())

    def unit(self, u: Unit, back: bool = False) -> Unit:
        powers, places = (self.back_power, self.back_province) if back else (self.power, self.province)
        return Unit(powers[u.power], u.type, self.place(u.location, places))

    def order(self, o: UnitOrder) -> UnitOrder:
        assert is_dataclass(o)
        changes: dict[str, Any] = {}
        for f in fields(o):
            value = getattr(o, f.name)
            if isinstance(value, Unit):
                changes[f.name] = self.unit(value)
            elif f.name in ("target", "dest") and value is not None:
                changes[f.name] = self.place(value)
        return replace(o, **changes)  # type: ignore[return-value]


def outcome(variant: Variant, units: Mapping[str, Unit], orders: list[UnitOrder], season: str,
            strengths: Mapping[str, int], back: Renaming | None = None) -> tuple[Any, ...]:
    """An adjudication in the original names: each unit's success, the dislodged units and their
    attackers' provinces, the units afterwards and the provinces left empty by a stand-off."""
    out = adjudicate_movement(variant, units, orders, season, strengths=dict(strengths))

    def unit(u: Unit) -> Unit:
        return back.unit(u, back=True) if back else u

    def prov(p: str | None) -> str | None:
        return back.back_province[p] if back and p is not None else p

    return (
        sorted((str(unit(r.unit)), r.success) for r in out.results),
        sorted((str(unit(d.unit)), prov(d.attacker_from)) for d in out.dislodged),
        sorted(str(unit(u)) for u in out.units.values()),
        sorted(str(prov(p)) for p in out.contested),
    )


def _positions() -> list[tuple[str, dict[str, Unit], list[UnitOrder], str, dict[str, int], str]]:
    """Every single-phase movement case of tests/cases (the rules texts' examples and the decisions), and
    a few movement phases of random games of each variant."""
    out = []
    for path in sorted(CASES.glob("*.json")):
        for case in load_cases(path):
            if case["phase"] != "Main" or "sites" in case or "knowledge" in case:
                continue
            v = load_variant(case.get("variant", "standard"))
            units = board(v, case.get("starting_state", []), case["orders"])
            orders = [o for o in parse_all(v, case["orders"], units, "movement").values() if not isinstance(o, str)]
            strengths = {unit_of(v, text)[1].province: k for text, k in case.get("strengths", {}).items()}
            out.append((v.id, units, orders, case.get("season", "spring"), strengths, case["name"]))  # type: ignore[arg-type]
    for vid in VARIANTS:
        if vid == "cluster":
            continue  # (its positions are the standard map's; its strengths come from the cases above)
        for game in random_game(vid, 1, 3):
            record, before = game.history[-1], game.snapshots[len(game.history) - 1]
            if record.phase.kind != "movement" or record.skipped:
                continue
            orders = [
                parse_order(text, game.variant, before.units, power=power)
                for power, texts in record.orders.items()
                for text in texts
            ]
            out.append((vid, dict(before.units), orders, record.phase.season, {}, f"random {vid} {record.phase}"))  # type: ignore[misc]
    return out


POSITIONS = _positions()
MIRROR = next(k for k, p in enumerate(POSITIONS) if p[5] == "cr_mirror_convoys_each_saving_its_own_fleet_are_both_void")


# derandomized: CI runs the same examples each time (3,000 random ones passed when it was written)
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 2**32), st.randoms(use_true_random=False))
@example(MIRROR, 0, random.Random(0))
@example(MIRROR, 1, random.Random(1))
def test_renaming_provinces_and_powers_never_changes_an_outcome(index: int, seed: int, rng: random.Random) -> None:
    vid, units, orders, season, strengths, _ = POSITIONS[index]
    v = load_variant(vid)
    expected = outcome(v, units, orders, season, strengths)
    r = Renaming(vid, seed)
    renamed_units = {province_of(r.unit(u).location): r.unit(u) for u in units.values()}
    renamed_orders = [r.order(o) for o in orders]
    rng.shuffle(renamed_orders)
    renamed_strengths = {r.province[p]: k for p, k in strengths.items()}
    assert outcome(r.variant, renamed_units, renamed_orders, season, renamed_strengths, back=r) == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_renamed_variant_is_the_same_map(variant: str) -> None:
    """The renaming itself keeps the map: every province keeps its neighbours (a check on the test)."""
    v = load_variant(variant)
    r = Renaming(variant, 7)
    assert [r.province[p] for p in v.provinces] != sorted(r.province[p] for p in v.provinces)  # the order changed
    for t in ("A", "F"):
        for p in v.provinces:
            for loc in v.locations(p):
                assert r.variant.neighbours(t, r.place(loc)) == sorted(r.place(n) for n in v.neighbours(t, loc))
    assert {r.power[p] for p in v.powers} == set(r.variant.powers)


#: A convoy paradox the property test above found detected under some names only: F Wal - Eng supported by
#: F Lon, F Bel - Eng supported by F Nth, A Bre - Lon convoyed by F Eng. A decision that read a guess already
#: in the dependency list was settled with the guessed value, so whether the paradox was seen hung on the
#: order the decisions were asked in.
PARADOX = next(k for k, p in enumerate(POSITIONS) if p[5] == "cr_convoy_attack_may_not_save_its_fleet")


@pytest.mark.parametrize("vid", ["standard", "coast_running"])
def test_a_convoy_paradox_is_found_whatever_the_names(vid: str) -> None:
    _, units, orders, season, _, _ = POSITIONS[PARADOX]
    v = load_variant(vid)
    expected = outcome(v, units, orders, season, {})
    for seed in range(20):
        r = Renaming(vid, seed)
        renamed_units = {province_of(r.unit(u).location): r.unit(u) for u in units.values()}
        renamed_orders = [r.order(o) for o in orders]
        assert outcome(r.variant, renamed_units, renamed_orders, season, {}, back=r) == expected, seed
