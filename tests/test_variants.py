"""The map model: the sourced standard map, the variants' integrity, and loud loading errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adjutant import VariantError, available_variants, load_variant
from adjutant.map.variant import maps_dir, province_of, reachable

VARIANTS = [vid for vid, _ in available_variants()]


def test_standard_map_counts() -> None:
    v = load_variant("standard")
    passable = [p for p in v.provinces.values() if p.type != "impassable"]
    assert len(passable) == 75
    assert [p.id for p in v.provinces.values() if p.type == "impassable"] == ["swi"]
    assert len(v.centres) == 34
    assert sum(len(p.home_centres) for p in v.powers.values()) == 22
    assert sum(len(p.units) for p in v.powers.values()) == 22
    assert v.victory_centres == 18
    assert v.provinces["stp"].coasts == ("nc", "sc")


@pytest.mark.parametrize(
    ("unit", "src", "dst", "ok"),
    [
        ("F", "bar", "stp/nc", True),
        ("F", "bot", "stp/nc", False),
        ("F", "kie", "bal", True),  # the Kiel canal
        ("A", "lon", "nth", False),
        ("A", "pie", "ven", True),
        ("F", "pie", "ven", False),  # no shared coastline
        ("F", "rom", "ven", False),
        ("A", "mar", "swi", False),
        ("F", "con", "bla", True),
        ("F", "bul/ec", "aeg", False),
    ],
)
def test_standard_adjacencies(unit: str, src: str, dst: str, ok: bool) -> None:
    assert load_variant("standard").can_move(unit, src, dst) is ok


@pytest.mark.parametrize("vid", VARIANTS)
def test_variant_integrity(vid: str) -> None:
    v = load_variant(vid)
    for e in v.edges:
        for loc in (e.a, e.b):
            assert province_of(loc) in v.provinces
        if e.who != "none":
            t = "A" if e.who == "army" else "F"
            a, b = e.a, e.b
            assert v.can_move(t, a, b) and v.can_move(t, b, a), e
    # every passable province can be reached from every other
    passable = {p for p, x in v.provinces.items() if x.type != "impassable"}
    start = sorted(passable)[0]
    assert reachable(v, start) == passable
    # home centres are centres, and every power starts with its units on its home centres or build sites
    for power in v.powers.values():
        sites = {s.province for s in power.build_sites}
        for h in power.home_centres:
            assert v.provinces[h].centre
        for u in power.units:
            t, loc = u.split()
            assert v.can_stand(t, loc), u
            assert province_of(loc) in set(power.home_centres) | sites, (power.id, u)
    assert v.victory_centres > len(v.centres) // 2
    for p in v.provinces.values():
        for c in p.coasts:
            assert v.neighbours("F", f"{p.id}/{c}"), f"{p.id}/{c} touches no sea"


def test_loeb9_facts() -> None:
    v = load_variant("loeb9")
    assert len(v.centres) == 38 and v.victory_centres == 20 and len(v.powers) == 9
    for name, prov in [("Oslo", "nwy"), ("Copenhagen", "den"), ("Stockholm", "swe"), ("Lisbon", "por")]:
        assert v.lookup(name) == prov
    assert "F stp/nc" in v.powers["russia"].units
    assert v.edge_kind("cor", "naf") == "weak" and v.edge_kind("nap", "sic") == "weak"
    assert v.provinces["arc"].seasons == ("spring",)
    assert {"ire", "pru", "sil"} <= set(v.centres) and "spa" not in v.provinces


def _write(tmp: Path, name: str, data: dict) -> None:  # type: ignore[type-arg]
    (tmp / f"{name}.json").write_text(json.dumps(data))


def _base() -> dict:  # type: ignore[type-arg]
    return json.loads((maps_dir() / "standard.json").read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["adjacencies"]["both"].append("lon xyz"), "unknown province 'xyz'"),
        (lambda d: d["adjacencies"]["army"].append("wal lon"), "edge 'wal lon' is written twice"),
        (lambda d: d["adjacencies"]["fleet"].append("mun bal"), "landlocked 'mun'"),
        (lambda d: d["adjacencies"]["fleet"].append("stp nwg"), "must name a coast of 'stp'"),
        (
            lambda d: d["powers"][0]["home_centres"].append("boh"),
            "home centre 'boh' of 'austria' is not a supply centre",
        ),
        (lambda d: d["powers"][0]["units"].append("A swi"), "unit 'A swi' of 'austria' starts where it may not stand"),
        (lambda d: d["powers"][0]["units"].append("F boh"), "unit 'F boh' of 'austria' starts where it may not stand"),
        (lambda d: d["provinces"].append({"id": "lon", "name": "x", "type": "land"}), "province 'lon' is listed twice"),
        (lambda d: d.update(options={"backup_rule": "brannan"}), "option 'backup_rule' must be one of"),
        (lambda d: d.update(options={"protect_orders": True}), "unknown option 'protect_orders'"),
        (lambda d: d.update(edge_kinds={"lon par": "weak"}), "edge_kinds names 'lon par', which is not an edge"),
        (
            lambda d: d["powers"][0].update(build_sites=[{"province": "gal", "units": ["Army"]}]),
            "the units of a build site of 'austria' must be a list of 'A' and 'F'",
        ),
    ],
)
def test_loading_errors_name_the_file_and_the_entry(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = _base()
    change(data)
    _write(tmp_path, "broken", data)
    with pytest.raises(VariantError) as e:
        load_variant("broken", tmp_path)
    assert "broken.json" in str(e.value) and message in str(e.value)


def test_delta_errors_and_unknown_variants(tmp_path: Path) -> None:
    _write(tmp_path, "standard", _base())
    _write(tmp_path, "delta", {"id": "delta", "name": "D", "extends": "standard", "drop_provinces": ["atl"]})
    with pytest.raises(VariantError, match="drop_provinces names 'atl'"):
        load_variant("delta", tmp_path)
    _write(tmp_path, "loop", {"id": "loop", "name": "L", "extends": "loop"})
    with pytest.raises(VariantError, match="loops back"):
        load_variant("loop", tmp_path)
    with pytest.raises(VariantError, match="unknown variant 'nowhere'"):
        load_variant("nowhere", tmp_path)
    with pytest.raises(VariantError, match="unknown variant"):
        load_variant("../standard", tmp_path)
    (tmp_path / "garbage.json").write_text("{not json")
    with pytest.raises(VariantError, match="garbage.json: not valid JSON"):
        load_variant("garbage", tmp_path)


def test_a_delta_changes_only_what_it_names(tmp_path: Path) -> None:
    _write(tmp_path, "standard", _base())
    _write(
        tmp_path,
        "small",
        {
            "id": "small",
            "name": "Small",
            "extends": "standard",
            "victory_centres": 10,
            "drop_adjacencies": ["lon wal"],
            "adjacencies": {"army": ["lon lvp"]},
        },
    )
    v = load_variant("small", tmp_path)
    assert v.victory_centres == 10 and v.first_year == 1901
    assert not v.can_move("A", "lon", "wal") and not v.can_move("F", "lon", "wal")
    assert v.can_move("A", "lon", "lvp") and not v.can_move("F", "lon", "lvp")
    assert v.can_move("F", "lon", "nth")


STANDARD_NEUTRALS = set("bel bul den gre hol nwy por rum ser swe".split())
CLINE_FACTS = {
    # variant: (powers' starting units that the texts name, neutral centres)
    "cline5": (
        {
            "barbary": {"F tun", "F mor", "A alg"},
            "persia": {"F jor/wc", "A ara", "A irn"},
            "turkey": {"A con", "F ank", "F smy"},
            "russia": {"A war", "A mos", "F sev", "F stp"},
        },
        STANDARD_NEUTRALS | set("pie cai cor cre egy sud cst".split()),
    ),
    "cline6": (
        {
            "barbary": {"F tun", "F cab", "A alg"},
            "persia": {"F jer", "A mec", "A teh"},
            "turkey": {"A con", "F ank", "F smy"},
            "italy": {"A rom", "F nap", "A mil"},
            "russia": {"A mos", "F sev", "F stp", "A ark"},
        },
        STANDARD_NEUTRALS | set("sud egy cre cor cai war pie cst".split()),
    ),
}


@pytest.mark.parametrize("vid", sorted(CLINE_FACTS))
def test_cline_facts(vid: str) -> None:
    v = load_variant(vid)
    units, neutrals = CLINE_FACTS[vid]
    assert len(v.powers) == 9 and len(v.centres) == 45 and v.victory_centres == 23 and v.first_year == 1901
    homes = {h for p in v.powers.values() for h in p.home_centres}
    assert set(v.centres) - homes == neutrals
    assert len(homes) + len(neutrals) == 45
    for power, want in units.items():
        assert set(v.powers[power].units) == want
    assert not v.provinces["ark"].centre
    russia = v.powers["russia"]
    assert "war" not in russia.home_centres if vid == "cline6" else "war" in russia.home_centres
    site = russia.build_sites[0]
    assert site.province == "ark"
    assert (site.units, site.requires) == ((("F",), ("stp",)) if vid == "cline5" else (("A", "F"), ()))
    ant = v.provinces["ant"]
    assert ant.offboard and not ant.convoy and {x for x in v.neighbours("F", "ant")} == {"wao", "ind"}
