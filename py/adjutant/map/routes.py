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


def run_ends(
    variant: Variant, start: str, guards: Iterable[str], holds: Callable[[str], bool] = _always
) -> Iterator[str]:
    """Coast-Running: the places a run from ``start`` along the coasts of the provinces ``guards`` may end
    (maps/coast_running.md, Destination), in search order, each once: every fleet location bordering a
    location the run reaches, but in a guard's province or the fleet's own. ``holds`` is asked as
    :func:`coast_run` asks it, lazily (a resolver asking whether a run reaches one place stops there)."""
    guards = list(guards)
    shut = {*guards, province_of(start)}
    seen: set[str] = set()
    for loc in coast_run(variant, start, guards, holds):
        for end in variant.neighbours("F", loc):
            if end not in seen and province_of(end) not in shut:
                seen.add(end)
                yield end


def is_run(variant: Variant, start: str, dest: str) -> bool:
    """Coast-Running: whether a fleet's move from ``start`` to ``dest`` (a place, its coast named or not) is a
    run, not an ordinary move: the fleet cannot go there directly (to the coast named, or, with none named,
    to any coast of the province). A run is legal only with armies protecting it along the way.

    >>> from adjutant.map.variant import load_variant
    >>> v = load_variant("coast_running")
    >>> is_run(v, "bla", "bul/ec"), is_run(v, "bla", "bul/sc"), is_run(v, "bla", "bul"), is_run(v, "nwg", "stp")
    (False, True, False, True)
    """
    if "/" in dest:
        return not variant.can_move("F", start, dest)
    return not variant.fleet_reaches(start, dest)


def run_destinations(
    variant: Variant, start: str, guards: Iterable[str], season: Season, via: str | None = None
) -> list[str]:
    """Coast-Running: where a fleet at ``start`` could be ordered to run, sorted, if every army in ``guards``
    (provinces) that the run can pass protected it: each place the run may end (:func:`run_ends`) that is open
    in the season and that the fleet cannot reach directly (:func:`is_run`; a coast of a province whose other
    coast it borders is such a place). With ``via``, none unless the run can pass that guard's province."""
    # the guards the run passes: the others' provinces are not in its way, and may be where it ends
    passed = sorted({province_of(loc) for loc in coast_run(variant, start, guards)})
    if via is not None and via not in passed:
        return []
    return sorted(
        end
        for end in run_ends(variant, start, passed)
        if variant.provinces[province_of(end)].open_in(season) and is_run(variant, start, end)
    )
