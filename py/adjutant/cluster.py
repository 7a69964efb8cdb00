"""Cluster Diplomacy: the Sites of the Ancients and the reach of Mattermission (rules 5.1, 5.3, 6).

The game master places the sites at random before play (rule 6); the placement here is a pure function of
the variant and a seed, so it is reproducible from the seed kept (secretly) in the game.

>>> from adjutant import load_variant
>>> v = load_variant("cluster")
>>> sites = place_sites(v, seed=1901)
>>> len(sites), sorted(set(sites.values()))
(21, [1, 2, 3])
>>> sites == place_sites(v, seed=1901)
True
"""

from __future__ import annotations

import random
from collections import deque

from .errors import AdjutantError
from .rules import ClusterRules
from .variant import Variant, province_of

#: How many times placement starts again from scratch before giving up (it never needs many).
ATTEMPTS = 200


def _rules(variant: Variant) -> ClusterRules:
    if variant.cluster is None:
        raise AdjutantError(f"{variant.name} has no Sites of the Ancients")
    return variant.cluster


def neighbours(variant: Variant, province: str) -> set[str]:
    """Provinces sharing a crossable border with ``province`` (by any unit)."""
    out: set[str] = set()
    for loc in variant.locations(province):
        for t in ("A", "F"):
            out.update(province_of(n) for n in variant.neighbours(t, loc))
    return out


def country_of(rules: ClusterRules, province: str) -> str | None:
    for country, members in rules.countries.items():
        if province in members:
            return country
    return None


def place_sites(variant: Variant, seed: int) -> dict[str, int]:
    """Province -> site level (1, 2 or 3) for every Site of the Ancients, drawn with ``seed``.

    Rule 6: of each level, at least one and at most three stand at sea, no two are adjacent, and no more
    than two are in any one country. Decision (maps/cluster.md): one site at most per province, and only
    on provinces a unit can enter.
    """
    rules = _rules(variant)
    rng = random.Random(seed)
    spaces = sorted(p.id for p in variant.provinces.values() if p.type != "impassable" and not p.offboard)
    seas = [p for p in spaces if variant.provinces[p].is_sea]
    lands = [p for p in spaces if not variant.provinces[p].is_sea]
    near = {p: neighbours(variant, p) for p in spaces}
    low, high = rules.sea_sites_per_level
    for _ in range(ATTEMPTS):
        sites: dict[str, int] = {}
        if _fill(rules, rng, sites, seas, lands, near, low, high):
            return sites
    raise AdjutantError(f"could not place the Sites of the Ancients on {variant.name}")


def _fill(
    rules: ClusterRules,
    rng: random.Random,
    sites: dict[str, int],
    seas: list[str],
    lands: list[str],
    near: dict[str, set[str]],
    low: int,
    high: int,
) -> bool:
    for level in rules.site_levels:
        at_sea = rng.randint(low, high)
        for pool, count in ((seas, at_sea), (lands, rules.sites_per_level - at_sea)):
            for _ in range(count):
                options = [p for p in pool if _allowed(rules, sites, near, p, level)]
                if not options:
                    return False
                sites[rng.choice(options)] = level
    return True


def _allowed(rules: ClusterRules, sites: dict[str, int], near: dict[str, set[str]], p: str, level: int) -> bool:
    if p in sites:
        return False
    if any(sites.get(n) == level for n in near[p]):
        return False
    country = country_of(rules, p)
    if country is None:
        return True
    same = sum(1 for q, lv in sites.items() if lv == level and country_of(rules, q) == country)
    return same < rules.sites_per_country_per_level


def check_sites(variant: Variant, sites: dict[str, int]) -> list[str]:
    """Every way a placement breaks rule 6 (empty: it keeps them all)."""
    rules = _rules(variant)
    problems = []
    for level in rules.site_levels:
        mine = [p for p, lv in sites.items() if lv == level]
        if len(mine) != rules.sites_per_level:
            problems.append(f"level {level}: {len(mine)} sites, not {rules.sites_per_level}")
        at_sea = sum(1 for p in mine if variant.provinces[p].is_sea)
        low, high = rules.sea_sites_per_level
        if not low <= at_sea <= high:
            problems.append(f"level {level}: {at_sea} sites at sea, not between {low} and {high}")
        for p in mine:
            for q in neighbours(variant, p):
                if q in mine and p < q:
                    problems.append(f"level {level}: {p} and {q} are adjacent")
        for country in rules.countries:
            n = sum(1 for p in mine if country_of(rules, p) == country)
            if n > rules.sites_per_country_per_level:
                problems.append(f"level {level}: {n} sites in {country}")
    return problems


def distance(variant: Variant, start: str, goal: str) -> int | None:
    """Moves across any crossable border from one province to another (None if unreachable)."""
    seen = {start}
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    while queue:
        p, d = queue.popleft()
        if p == goal:
            return d
        for n in sorted(neighbours(variant, p)):
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    return None


def mattermission_targets(variant: Variant, site: str, unit_type: str) -> list[str]:
    """Where a unit of the type standing on a Mattermission site may be mattermitted: every place it could
    stand within the variant's range of the site (decision in maps/cluster.md)."""
    rules = _rules(variant)
    out = []
    for p in sorted(variant.provinces):
        d = distance(variant, site, p)
        if d is None or d == 0 or d > rules.mattermission_range:
            continue
        locations = [p] if unit_type == "A" else variant.fleet_locations(p)
        out += [loc for loc in locations if variant.can_stand(unit_type, loc)]
    return out
