"""Routes that are not one step along the map: chains of convoying seas, and Coast-Running's runs along
protected coasts. The legality checks, the resolver, retreats and the page's click-to-order all search
routes here, so each search is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .kinds import Season
from .variant import Variant, province_of


def _reached(starts: list[str], holds: Callable[[str], bool], step: Callable[[str], Iterable[str]]) -> Iterator[str]:
    """The places a search from ``starts`` reaches, in search order (depth first, the last found first):
    each place once, if ``holds`` of it is true, and from it the places ``step`` gives. ``holds`` is asked
    lazily, once for each place reached: the resolver answers it by resolving decisions, in this order."""
    todo = starts
    seen: set[str] = set()
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        if not holds(here):
            continue
        yield here
        todo += [n for n in step(here) if n not in seen]


def _always(place: str) -> bool:
    return True


def sea_route_exists(variant: Variant, src: str, dst: str, season: Season, only: set[str] | None = None) -> bool:
    """Whether some chain of seas (of the seas in ``only``, if given) joins two coastal provinces."""
    graph, shore = variant.sea_graph(season)
    goal = shore.get(dst)
    if not goal:
        return False
    starts = shore.get(src, frozenset())
    if only is not None:
        starts = starts & only
    step = graph.__getitem__ if only is None else lambda s: [n for n in graph[s] if n in only]
    return any(s in goal for s in _reached(list(starts), _always, step))


def convoy_chain(
    variant: Variant, season: Season, src: str, dst: str, fleets: Iterable[str], holds: Callable[[str], bool]
) -> bool:
    """Whether a chain of the seas ``fleets`` (where fleets convoy an army) whose convoys hold joins the
    coastal provinces ``src`` and ``dst``. Whether a convoy holds is asked lazily, once for each sea the
    search reaches, because the resolver answers it by resolving decisions."""
    graph, shore = variant.sea_graph(season)
    fleets = list(fleets)
    near_src, goal = shore.get(src, ()), shore.get(dst, ())

    def step(s: str) -> list[str]:
        near = graph.get(s, ())
        return [n for n in fleets if n in near]

    return any(s in goal for s in _reached([s for s in fleets if s in near_src], holds, step))


def is_convoy_sea(variant: Variant, province: str, season: Season) -> bool:
    """Whether a fleet in ``province`` may convoy in the season."""
    p = variant.provinces.get(province)
    return p is not None and p.is_sea and p.convoy and p.open_in(season)


def coast_run(
    variant: Variant, start: str, guards: Iterable[str], holds: Callable[[str], bool] = _always
) -> Iterator[str]:
    """Coast-Running: the fleet locations a fleet at ``start`` reaches by running along the coasts of the
    provinces ``guards`` (the provinces of the armies that protect it), in search order. A guard's
    province is passed only if ``holds`` says its protection holds; it is asked lazily, once for each
    location reached, because the resolver answers it by resolving decisions. Each step goes along a
    shared coastline, so a run cannot cross a province between two of its coasts."""
    guards = list(guards)

    def step(loc: str) -> list[str]:
        return [n for p in guards for n in variant.fleet_locations(p) if variant.can_move("F", loc, n)]

    return _reached(step(start), lambda loc: holds(province_of(loc)), step)
