"""Routes that are not one step along the map: chains of convoying seas, and Coast-Running's runs along
protected coasts. The legality checks, the resolver, retreats and the page's click-to-order all search
routes here, so each search is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .variant import Variant, province_of


def sea_route_exists(variant: Variant, src: str, dst: str, season: str, only: set[str] | None = None) -> bool:
    """Whether some chain of seas (of the seas in ``only``, if given) joins two coastal provinces."""
    graph, shore = variant.sea_graph(season)
    goal = shore.get(dst)
    if not goal:
        return False
    starts = shore.get(src, frozenset())
    if only is not None:
        starts = starts & only
    seen = set(starts)
    todo = list(seen)
    while todo:
        s = todo.pop()
        if s in goal:
            return True
        for n in graph[s]:
            if n not in seen and (only is None or n in only):
                seen.add(n)
                todo.append(n)
    return False


def convoy_chain(
    variant: Variant, season: str, src: str, dst: str, fleets: Iterable[str], holds: Callable[[str], bool]
) -> bool:
    """Whether a chain of the seas ``fleets`` (where fleets convoy an army) whose convoys hold joins the
    coastal provinces ``src`` and ``dst``. Whether a convoy holds is asked lazily, once for each sea the
    search reaches, because the resolver answers it by resolving decisions."""
    graph, shore = variant.sea_graph(season)
    fleets = list(fleets)
    near_src, goal = shore.get(src, ()), shore.get(dst, ())
    todo = [s for s in fleets if s in near_src]
    seen: set[str] = set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        if not holds(s):
            continue
        if s in goal:
            return True
        near = graph.get(s, ())
        todo.extend(n for n in fleets if n not in seen and n in near)
    return False


def is_convoy_sea(variant: Variant, province: str, season: str) -> bool:
    """Whether a fleet in ``province`` may convoy in the season."""
    p = variant.provinces.get(province)
    return p is not None and p.is_sea and p.convoy and p.open_in(season)


def _always(province: str) -> bool:
    return True


def coast_run(
    variant: Variant, start: str, guards: Iterable[str], holds: Callable[[str], bool] = _always
) -> Iterator[str]:
    """Coast-Running: the fleet locations a fleet at ``start`` reaches by running along the coasts of the
    provinces ``guards`` (the provinces of the armies that protect it), in search order. A guard's
    province is passed only if ``holds`` says its protection holds; it is asked lazily, once for each
    location reached, because the resolver answers it by resolving decisions. Each step goes along a
    shared coastline, so a run cannot cross a province between two of its coasts."""
    guards = list(guards)
    todo = [loc for p in guards for loc in variant.fleet_locations(p) if variant.can_move("F", start, loc)]
    seen: set[str] = set()
    while todo:
        loc = todo.pop()
        if loc in seen:
            continue
        seen.add(loc)
        if not holds(province_of(loc)):
            continue
        yield loc
        todo += [
            n for p in guards for n in variant.fleet_locations(p) if n not in seen and variant.can_move("F", loc, n)
        ]
