"""Cluster Diplomacy (draft): the Sites of the Ancients and Mattermission's reach."""

from __future__ import annotations

import pytest
from adjutant import load_variant
from adjutant.cluster import check_sites, distance, mattermission_targets, place_sites
from adjutant.variant import available_variants
from hypothesis import given, settings
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


def test_mattermission_reach_follows_the_rule_not_the_slip_in_its_example() -> None:
    fleet = mattermission_targets(V, "lon", "F")
    assert "mar" in fleet  # the text's example
    assert "lyo" in fleet  # the text says not; 4 moves all the same (maps/cluster.md)
    assert "nap" not in fleet and "lon" not in fleet
    army = mattermission_targets(V, "lon", "A")
    assert "mar" in army and "lyo" not in army and "nth" not in army


def test_a_draft_variant_is_not_offered() -> None:
    assert "cluster" not in [v for v, _ in available_variants()]
    assert "cluster" in [v for v, _ in available_variants(drafts=True)]
