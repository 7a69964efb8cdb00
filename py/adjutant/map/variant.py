"""The map model: provinces, coasts, adjacencies, powers, read from ``maps/<id>.json``.

A variant file may ``extend`` another and list only its changes; see ``maps/README.md``.

>>> v = load_variant("standard")
>>> len(v.provinces), len(v.centres), v.victory_centres
(76, 34, 18)
>>> v.can_move("F", "bar", "stp/nc"), v.can_move("A", "lon", "nth")
(True, False)
"""

from __future__ import annotations

import difflib
import functools
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import VariantError
from .kinds import SEASONS, UNIT_TYPES, Season, UnitType, unit_type_of
from .options import ClusterRules, RuleOptions

PROVINCE_TYPES = ("land", "coastal", "sea", "impassable")
EDGE_LISTS = ("both", "army", "fleet", "none")
EDGE_KINDS = ("weak", "passage", "canal", "box")
COAST_NAMES = {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}


#: the engine package's folder (adjutant/), whichever of its sub-packages this module is in
PACKAGE_DIR = Path(__file__).resolve().parents[__name__.count(".") - 1]


def maps_dir() -> Path:
    """Where the variant files live: ``$ADJUTANT_MAPS``, else ``maps/`` inside the installed package,
    else ``maps/`` at the top of the checkout this module is in."""
    env = os.environ.get("ADJUTANT_MAPS")
    if env:
        return Path(env)
    here = PACKAGE_DIR
    installed = here / "maps"
    return installed if installed.is_dir() else here.parents[1] / "maps"


def normalize_name(name: str) -> str:
    """The form names are compared in: lower case, with ``.``, ``-`` and ``_`` as spaces."""
    return " ".join(name.lower().replace(".", " ").replace("-", " ").replace("_", " ").split())


def province_of(location: str) -> str:
    """``"stp/nc"`` -> ``"stp"``."""
    return location.partition("/")[0]


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    type: str
    aliases: tuple[str, ...] = ()
    coasts: tuple[str, ...] = ()
    centre: bool = False
    seasons: tuple[str, ...] = ()
    convoy: bool = True
    offboard: bool = False

    @property
    def army_can_stand(self) -> bool:
        return self.type in ("land", "coastal")

    @property
    def fleet_can_stand(self) -> bool:
        """Whether a fleet may stand in the province itself (not on one of its named coasts)."""
        return self.type == "sea" or (self.type == "coastal" and not self.coasts)

    @property
    def is_sea(self) -> bool:
        return self.type == "sea"

    def open_in(self, season: Season) -> bool:
        return not self.seasons or season in self.seasons


@dataclass(frozen=True)
class BuildSite:
    """A place a power may build although it is not one of its home centres."""

    province: str
    units: tuple[UnitType, ...] = UNIT_TYPES
    requires: tuple[str, ...] = ()
    coast: str | None = None


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    adjective: str
    abbrev: str
    home_centres: tuple[str, ...]
    units: tuple[str, ...]
    build_sites: tuple[BuildSite, ...] = ()


@dataclass(frozen=True)
class Edge:
    a: str
    b: str
    who: str
    kind: str | None = None


@dataclass(frozen=True, eq=False)
class Variant:
    """An immutable map with its powers and rule options. Build it with :func:`load_variant`."""

    id: str
    name: str
    first_year: int
    victory_centres: int
    options: RuleOptions
    provinces: dict[str, Province]
    powers: dict[str, Power]
    edges: tuple[Edge, ...]
    source: str = ""
    #: Cluster Diplomacy's site rules, for that variant only
    cluster: ClusterRules | None = None
    #: the kinds of order the variant takes beyond the classic ones (its data's: Cluster's research,
    #: transfer, mattermission and nomination; Coast-Running's protect), which the parser and
    #: :mod:`adjutant.adjudication.legality` ask
    order_kinds: frozenset[str] = frozenset()
    #: the strengths of a power's multiple units, strongest first (none: the variant has no multiples)
    multiples: tuple[int, ...] = ()
    _army: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _fleet: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _kinds: dict[frozenset[str], str] = field(default_factory=dict, repr=False)
    _names: dict[str, str] = field(default_factory=dict, repr=False)
    # derived tables, built once (the resolver asks these questions thousands of times a phase)
    _touch: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict, repr=False)
    _pair_kinds: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    _convoy_seas: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _reach: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict, repr=False)
    _closed: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    #: by season: each convoying sea's convoying neighbours, and each province's convoying seas
    _sea_graph: dict[str, tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]] = field(
        default_factory=dict, repr=False
    )
    #: :meth:`convoy_route_seas`, kept as each pair is first asked for
    _routes: dict[tuple[str, str, str], frozenset[str]] = field(default_factory=dict, repr=False)
    #: :meth:`builds_at`, kept as each is first asked for
    _builds: dict[tuple[str, tuple[UnitType, ...], str | None], tuple[str, ...]] = field(
        default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        touch: dict[str, dict[str, set[str]]] = {"A": {}, "F": {}}
        for t, table in zip(UNIT_TYPES, (self._army, self._fleet), strict=True):
            for loc, targets in table.items():
                if self.can_stand(t, loc):
                    touch[t].setdefault(province_of(loc), set()).update(province_of(d) for d in targets)
        self._touch.update({t: {p: frozenset(x) for p, x in d.items()} for t, d in touch.items()})
        for t, table in (("A", self._army), ("F", self._fleet)):
            self._reach[t] = {loc: frozenset(province_of(d) for d in targets) for loc, targets in table.items()}
        for pair, kind in self._kinds.items():
            a, b = sorted(pair)
            self._pair_kinds[(a, b)] = kind
            self._pair_kinds[(b, a)] = kind
        # provinces whose only waters are canals (Cline V's Moscow): no shore for a convoy, as "armies may not be
        # convoyed through the canal"
        canal_only = {
            p for p, near in self._touch["F"].items() if near and all(self.edge_kind(p, q) == "canal" for q in near)
        }
        for season in SEASONS:
            self._convoy_seas[season] = tuple(
                p.id for p in self.provinces.values() if p.is_sea and p.convoy and p.open_in(season)
            )
            self._closed[season] = frozenset(p.id for p in self.provinces.values() if not p.open_in(season))
            seas = set(self._convoy_seas[season])
            shore: dict[str, set[str]] = {}
            for s in seas:
                for p in self._touch["F"].get(s, ()):
                    if p not in canal_only:
                        shore.setdefault(p, set()).add(s)
            self._sea_graph[season] = (
                {s: tuple(n for n in self.neighbours("F", s) if n in seas) for s in seas},
                {p: frozenset(x) for p, x in shore.items()},
            )

    def __repr__(self) -> str:
        return f"load_variant({self.id!r})"

    # --- places -------------------------------------------------------------------------------
    @property
    def centres(self) -> list[str]:
        return [p.id for p in self.provinces.values() if p.centre]

    @functools.cached_property
    def centre_set(self) -> frozenset[str]:
        """The supply centres' provinces."""
        return frozenset(self.centres)

    def locations(self, province: str) -> list[str]:
        """Every place a unit may stand in a province: itself and/or its coasts."""
        p = self.provinces[province]
        if p.coasts:
            return [province] + [f"{province}/{c}" for c in p.coasts]
        return [province] if p.type != "impassable" else []

    def can_stand(self, unit_type: UnitType, location: str) -> bool:
        prov, _, coast = location.partition("/")
        p = self.provinces.get(prov)
        if p is None:
            return False
        if unit_type == "A":
            return not coast and p.army_can_stand
        if coast:
            return coast in p.coasts
        return p.fleet_can_stand

    def fleet_locations(self, province: str) -> list[str]:
        p = self.provinces[province]
        if p.coasts:
            return [f"{province}/{c}" for c in p.coasts]
        return [province] if p.fleet_can_stand else []

    def power_by_abbrev(self, abbrev: str) -> Power | None:
        for p in self.powers.values():
            if p.abbrev.lower() == abbrev.lower():
                return p
        return None

    def lookup(self, name: str) -> str | None:
        """A province id for a name, abbreviation or alias in any case (``"London"`` -> ``"lon"``)."""
        return self._names.get(normalize_name(name))

    @functools.cached_property
    def bordering(self) -> dict[str, frozenset[str]]:
        """Per province, the provinces it shares an edge with (by army or fleet)."""
        around: dict[str, set[str]] = {p: set() for p in self.provinces}
        for edge in self.edges:
            a, b = province_of(edge.a), province_of(edge.b)
            around[a].add(b)
            around[b].add(a)
        return {p: frozenset(near) for p, near in around.items()}

    def nearest_names(self, name: str, limit: int = 3) -> list[str]:
        """The provinces (ids) a name this variant does not have most likely meant, best first: the names
        spelt closest to it (a slip: "Lodnon" for London), then, for a province of the standard map, those
        of this variant standing where it stands: bordering most of its neighbours that this variant has (a
        map that splits Spain: "Spa" gives Castille and Catalonia). [] when nothing comes close.

        >>> load_variant("cline5").nearest_names("Spa")
        ['cst', 'cat']
        >>> load_variant("standard").nearest_names("Lodnon")
        ['lon']
        """
        key = normalize_name(name)
        spelt = difflib.get_close_matches(key, list(self._names), n=limit, cutoff=0.75)
        found = [self._names[k] for k in spelt]
        return list(dict.fromkeys(found + self._standing_where(name)))[:limit]

    def _standing_where(self, name: str) -> list[str]:
        """The provinces standing where ``name``, a province of the standard map, stands (see
        :meth:`nearest_names`), best placed first."""
        try:
            standard = load_variant("standard")
        except VariantError:
            return []
        there = standard.lookup(name)
        if there is None:
            return []
        known = {self.lookup(standard.provinces[p].name) for p in standard.bordering[there]}
        known.discard(None)
        shared = {p: len(near & known) for p, near in self.bordering.items() if p not in known}
        ranked = sorted((p for p, count in shared.items() if count >= 2),
                        key=lambda p: (-shared[p], self.provinces[p].name))
        if not ranked:
            return []
        # the best placed, and the next best when only one is (a province split three ways)
        top = shared[ranked[0]]
        tier = [p for p in ranked if shared[p] == top]
        if len(tier) < 2:
            tier += [p for p in ranked if shared[p] == top - 1]
        return tier

    def province_name(self, location: str) -> str:
        prov, _, coast = location.partition("/")
        name = self.provinces[prov].name
        return f"{name} ({COAST_NAMES.get(coast, coast)})" if coast else name

    # --- adjacency ----------------------------------------------------------------------------
    def can_move(self, unit_type: UnitType, src: str, dst: str) -> bool:
        """Whether a unit of the type may move from ``src`` to ``dst`` (locations, coasts named for fleets)."""
        if unit_type == "A":
            return dst in self._army.get(src, frozenset())
        return dst in self._fleet.get(src, frozenset())

    def neighbours(self, unit_type: UnitType, location: str) -> list[str]:
        table = self._army if unit_type == "A" else self._fleet
        return sorted(table.get(location, frozenset()))

    def edge_kind(self, a: str, b: str) -> str | None:
        if not self._pair_kinds:
            return None
        return self._pair_kinds.get((province_of(a), province_of(b)))

    def convoy_seas(self, season: Season) -> tuple[str, ...]:
        """The seas whose fleets may convoy in the season."""
        return self._convoy_seas[season]

    def sea_graph(self, season: Season) -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
        """The seas that convoy in the season as a graph: each one's neighbours among them, and for each
        province the seas among them that touch it."""
        return self._sea_graph[season]

    def convoy_route_seas(self, src: str, dst: str, season: Season) -> frozenset[str]:
        """The seas on some chordless sea route from province ``src`` to ``dst`` in the season: a route with
        no fleet to spare (each sea on it touches neither the start nor any sea before the last one). A fact
        of the map, worked out once for each pair asked about."""
        key = (src, dst, season)
        seas = self._routes.get(key)
        if seas is None:
            seas = self._routes[key] = self._chordless_route_seas(src, dst, season)
        return seas

    def _chordless_route_seas(self, src: str, dst: str, season: Season) -> frozenset[str]:
        graph, shore = self.sea_graph(season)
        found: set[str] = set()

        def extend(path: list[str]) -> None:
            last = path[-1]
            if self.touches(last, dst, "F"):
                found.update(path)
                return
            if len(path) >= 8:
                return
            for n in graph[last]:
                # chordless: the new sea touches neither the start nor any sea but the last one
                if n in path or self.touches(n, src, "F") or any(self.can_move("F", q, n) for q in path[:-1]):
                    continue
                extend([*path, n])

        for s in self.convoy_seas(season):
            if self.touches(s, src, "F"):
                extend([s])
        return frozenset(found)

    def builds_at(
        self, province: str, types: tuple[UnitType, ...] = UNIT_TYPES, coast: str | None = None
    ) -> tuple[str, ...]:
        """``("A lon", "F lon")``: the builds of the types the map allows in a province (on the coast, if
        given), whoever owns it and whatever stands there: a unit may stand there, and leave. A fact of
        the map, worked out once for each province asked about."""
        key = (province, types, coast)
        builds = self._builds.get(key)
        if builds is None:
            builds = self._builds[key] = tuple(
                f"{t} {loc}"
                for t in types
                for loc in ([province] if t == "A" else self.fleet_locations(province))
                if (coast is None or t != "F" or loc == f"{province}/{coast}")
                and self.can_stand(t, loc)
                and (self._army if t == "A" else self._fleet).get(loc)
            )
        return builds

    def closed_in(self, season: Season) -> frozenset[str]:
        """The provinces closed in the season (a unit there can only hold)."""
        return self._closed[season]

    def reaches(self, unit_type: UnitType, src: str, province: str) -> bool:
        """Whether a unit of the type at location ``src`` borders some place of ``province`` it could enter."""
        return province in self._reach[unit_type].get(src, ())

    def fleet_reaches(self, src: str, province: str) -> list[str]:
        """The locations of ``province`` a fleet at ``src`` may move to."""
        return [loc for loc in self.fleet_locations(province) if loc in self._fleet.get(src, frozenset())]

    def touches(self, src_province: str, dst_province: str, unit_type: UnitType | None = None) -> bool:
        """Whether some unit (or a unit of the type) in ``src_province`` could move to ``dst_province``."""
        if unit_type is None:
            return self.touches(src_province, dst_province, "A") or self.touches(src_province, dst_province, "F")
        return dst_province in self._touch[unit_type].get(src_province, ())


# --- loading ------------------------------------------------------------------------------------


def load_variant(variant_id: str, directory: str | Path | None = None) -> Variant:
    """Load ``maps/<variant_id>.json`` (following ``extends``) and check it.

    Raises :class:`VariantError` naming the file and the entry at fault.
    """
    return _load(variant_id, str(directory) if directory is not None else str(maps_dir()))


@functools.lru_cache(maxsize=32)
def _load(variant_id: str, directory: str) -> Variant:
    return build_variant(*variant_data(variant_id, directory))


def variant_data(variant_id: str, directory: str | Path | None = None) -> tuple[dict[str, Any], str]:
    """The data of ``maps/<variant_id>.json`` with the files it ``extends`` merged in, not yet checked
    (:func:`build_variant` checks it), and the file's name.

    >>> data, source = variant_data("coast_running")
    >>> source, data["name"], len(data["provinces"]) > 50
    ('coast_running.json', 'Coast-Running', True)
    """
    return _read_merged(variant_id, Path(directory) if directory is not None else maps_dir(), ())


def available_variants(directory: str | Path | None = None, drafts: bool = False) -> list[tuple[str, str]]:
    """``[(id, name), ...]`` of every playable variant file in the maps folder. A file marked ``"draft"``
    (its rules are not all adjudicated yet) is listed only when ``drafts`` is true."""
    folder = Path(directory) if directory is not None else maps_dir()
    out = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or (data.get("draft") and not drafts):
            continue
        out.append((path.stem, str(data.get("name", path.stem))))
    return out


def _read_file(variant_id: str, directory: Path) -> tuple[dict[str, Any], str]:
    if not (0 < len(variant_id) <= 64 and variant_id.isascii() and all(c.isalnum() or c in "_-" for c in variant_id)):
        raise VariantError(f"unknown variant {variant_id!r}")
    path = directory / f"{variant_id}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = ", ".join(v for v, _ in available_variants(directory, drafts=True))
        raise VariantError(f"unknown variant {variant_id!r} (known: {known})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise VariantError(f"{path.name}: not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise VariantError(f"{path.name}: the top level must be an object")
    return data, path.name


def _read_merged(variant_id: str, directory: Path, seen: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    if variant_id in seen:
        raise VariantError(f"{seen[-1]}.json: 'extends' loops back to {variant_id!r}")
    data, source = _read_file(variant_id, directory)
    base_id = data.get("extends")
    if base_id is None:
        return data, source
    base, _ = _read_merged(str(base_id), directory, (*seen, variant_id))
    return apply_delta(base, data, source), source


def _edge_key(edge: str, source: str) -> tuple[str, str]:
    parts = edge.split()
    if len(parts) != 2:
        raise VariantError(f"{source}: edge {edge!r} must be two places separated by a space")
    a, b = sorted(parts)
    return a, b


def apply_delta(base: dict[str, Any], delta: dict[str, Any], source: str) -> dict[str, Any]:
    """Apply a variant's changes (``drop_*``, replacements, additions) to its base's data."""
    out = {k: v for k, v in base.items() if k not in ("extends",)}
    for key, value in delta.items():
        if key in ("provinces", "powers", "adjacencies", "options", "edge_kinds", "extends") or key.startswith("drop_"):
            continue
        out[key] = value
    dropped = set(delta.get("drop_provinces", []))
    provinces = {p["id"]: p for p in base.get("provinces", []) if p["id"] not in dropped}
    for name in dropped:
        if not any(p["id"] == name for p in base.get("provinces", [])):
            raise VariantError(f"{source}: drop_provinces names {name!r}, which the base does not have")
    for p in delta.get("provinces", []):
        provinces[p["id"]] = p
    out["provinces"] = list(provinces.values())

    drop_powers = set(delta.get("drop_powers", []))
    powers = {p["id"]: p for p in base.get("powers", []) if p["id"] not in drop_powers}
    for p in delta.get("powers", []):
        powers[p["id"]] = {**powers.get(p["id"], {}), **p}
    out["powers"] = list(powers.values())

    drop_edges = {_edge_key(e, source) for e in delta.get("drop_adjacencies", [])}
    found: set[tuple[str, str]] = set()
    adjacencies: dict[str, list[str]] = {}
    for who in EDGE_LISTS:
        kept = []
        for edge in base.get("adjacencies", {}).get(who, []):
            pair = _edge_key(edge, source)
            if pair in drop_edges:
                found.add(pair)
                continue
            if any(province_of(x) in dropped for x in pair):
                continue
            kept.append(edge)
        adjacencies[who] = kept + list(delta.get("adjacencies", {}).get(who, []))
    for missing in sorted(drop_edges - found):
        raise VariantError(f"{source}: drop_adjacencies names {' '.join(missing)!r}, which the base does not have")
    out["adjacencies"] = adjacencies
    kinds = {
        k: v
        for k, v in base.get("edge_kinds", {}).items()
        if _edge_key(k, source) not in drop_edges and not any(province_of(x) in dropped for x in k.split())
    }
    kinds.update(delta.get("edge_kinds", {}))
    out["edge_kinds"] = kinds
    out["options"] = {**base.get("options", {}), **delta.get("options", {})}
    return out


def _str_list(value: Any, what: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise VariantError(f"{source}: {what} must be a list of strings")
    return tuple(value)


def build_variant(data: dict[str, Any], source: str = "<data>") -> Variant:
    """Build and check a :class:`Variant` from already-merged data."""
    for key in ("id", "name", "provinces", "powers", "adjacencies"):
        if key not in data:
            raise VariantError(f"{source}: missing {key!r}")
    provinces: dict[str, Province] = {}
    for raw in data["provinces"]:
        pid = raw.get("id")
        if not isinstance(pid, str) or not pid.isalnum() or pid != pid.lower():
            raise VariantError(f"{source}: province id {pid!r} must be lower-case letters and digits")
        if pid in provinces:
            raise VariantError(f"{source}: province {pid!r} is listed twice")
        ptype = raw.get("type")
        if ptype not in PROVINCE_TYPES:
            raise VariantError(f"{source}: province {pid!r} has type {ptype!r}, not one of {PROVINCE_TYPES}")
        coasts = _str_list(raw.get("coasts", []), f"coasts of {pid!r}", source)
        if coasts and ptype != "coastal":
            raise VariantError(f"{source}: province {pid!r} has named coasts but is not coastal")
        seasons = _str_list(raw.get("seasons", []), f"seasons of {pid!r}", source)
        for s in seasons:
            if s not in SEASONS:
                raise VariantError(f"{source}: province {pid!r} names unknown season {s!r}")
        provinces[pid] = Province(
            id=pid,
            name=str(raw.get("name", pid)),
            type=ptype,
            aliases=_str_list(raw.get("aliases", []), f"aliases of {pid!r}", source),
            coasts=coasts,
            centre=bool(raw.get("centre", False)),
            seasons=seasons,
            convoy=bool(raw.get("convoy", True)),
            offboard=bool(raw.get("offboard", False)),
        )

    def check_location(loc: str, context: str) -> str:
        prov, _, coast = loc.partition("/")
        if prov not in provinces:
            raise VariantError(f"{source}: {context} names unknown province {prov!r}")
        if coast and coast not in provinces[prov].coasts:
            raise VariantError(f"{source}: {context} names unknown coast {loc!r}")
        return loc

    army: dict[str, set[str]] = {p: set() for p in provinces}
    fleet: dict[str, set[str]] = {}
    edges: list[Edge] = []
    seen: dict[tuple[str, str], str] = {}
    kinds_raw = data.get("edge_kinds", {})
    for who in data["adjacencies"]:
        if who not in EDGE_LISTS:
            raise VariantError(f"{source}: adjacency list {who!r} is not one of {EDGE_LISTS}")
    for who in EDGE_LISTS:
        for edge in data["adjacencies"].get(who, []):
            a, b = _edge_key(edge, source)
            check_location(a, f"edge {edge!r}")
            check_location(b, f"edge {edge!r}")
            pa, pb = province_of(a), province_of(b)
            if pa == pb:
                raise VariantError(f"{source}: edge {edge!r} joins a province to itself")
            if (a, b) in seen:
                raise VariantError(f"{source}: edge {edge!r} is written twice (in {seen[(a, b)]!r} and {who!r})")
            seen[(a, b)] = who
            A, B = provinces[pa], provinces[pb]
            if who == "none":
                edges.append(Edge(a, b, who))
                continue
            if A.type == "impassable" or B.type == "impassable":
                raise VariantError(f"{source}: edge {edge!r} crosses into an impassable province")
            if who == "both" and not (A.type == B.type == "coastal"):
                raise VariantError(
                    f"{source}: edge {edge!r} is listed under 'both' but only two coastal provinces can share "
                    "a coastline (use 'army' or 'fleet')"
                )
            if who in ("army", "both"):
                if "/" in a or "/" in b:
                    raise VariantError(f"{source}: army edge {edge!r} must name provinces, not coasts")
                if not (A.army_can_stand and B.army_can_stand):
                    raise VariantError(f"{source}: army edge {edge!r} touches a sea")
                army[a].add(b)
                army[b].add(a)
            if who in ("fleet", "both"):
                for loc, p in ((a, A), (b, B)):
                    if p.type == "land":
                        raise VariantError(f"{source}: fleet edge {edge!r} touches landlocked {p.id!r}")
                    if p.coasts and "/" not in loc:
                        raise VariantError(
                            f"{source}: fleet edge {edge!r} must name a coast of {p.id!r} "
                            f"({', '.join(p.id + '/' + c for c in p.coasts)})"
                        )
                fleet.setdefault(a, set()).add(b)
                fleet.setdefault(b, set()).add(a)
            edges.append(Edge(a, b, who))
    kinds: dict[frozenset[str], str] = {}
    for edge, kind in kinds_raw.items():
        a, b = _edge_key(edge, source)
        if (a, b) not in seen:
            raise VariantError(f"{source}: edge_kinds names {edge!r}, which is not an edge")
        if kind not in EDGE_KINDS:
            raise VariantError(f"{source}: edge_kinds gives {edge!r} unknown kind {kind!r}")
        if kind == "weak" and seen[(a, b)] != "army":
            raise VariantError(f"{source}: weak passage {edge!r} must be an army edge")
        kinds[frozenset((province_of(a), province_of(b)))] = kind
    edges = [Edge(e.a, e.b, e.who, kinds.get(frozenset((province_of(e.a), province_of(e.b))))) for e in edges]

    names: dict[str, str] = {}
    for p in provinces.values():
        for name in (p.id, p.name, *p.aliases):
            key = normalize_name(name)
            if names.get(key, p.id) != p.id:
                raise VariantError(f"{source}: the name {name!r} is used by both {names[key]!r} and {p.id!r}")
            names[key] = p.id

    powers: dict[str, Power] = {}
    abbrevs: set[str] = set()
    for raw in data["powers"]:
        pid = raw.get("id")
        if not isinstance(pid, str) or not pid:
            raise VariantError(f"{source}: a power has no id")
        abbrev = str(raw.get("abbrev", pid[:3].upper()))
        if abbrev in abbrevs:
            raise VariantError(f"{source}: power abbreviation {abbrev!r} is used twice")
        abbrevs.add(abbrev)
        homes = _str_list(raw.get("home_centres", []), f"home_centres of {pid!r}", source)
        for h in homes:
            check_location(h, f"power {pid!r}")
            if not provinces[h].centre:
                raise VariantError(f"{source}: home centre {h!r} of {pid!r} is not a supply centre")
        units = _str_list(raw.get("units", []), f"units of {pid!r}", source)
        for u in units:
            parts = u.split()
            if len(parts) != 2 or parts[0] not in ("A", "F"):
                raise VariantError(f"{source}: unit {u!r} of {pid!r} must look like 'A par' or 'F stp/sc'")
            check_location(parts[1], f"unit {u!r} of {pid!r}")
            if not _can_stand(provinces, unit_type_of(parts[0]), parts[1]):
                raise VariantError(f"{source}: unit {u!r} of {pid!r} starts where it may not stand")
        sites = []
        for s in raw.get("build_sites", []):
            types = s.get("units", list(UNIT_TYPES))
            if not isinstance(types, list) or not all(t in UNIT_TYPES for t in types):
                raise VariantError(f"{source}: the units of a build site of {pid!r} must be a list of 'A' and 'F'")
            site = BuildSite(
                province=str(s.get("province")),
                units=tuple(unit_type_of(t) for t in types),
                requires=tuple(s.get("requires", [])),
                coast=s.get("coast"),
            )
            check_location(site.province, f"build site of {pid!r}")
            for r in site.requires:
                check_location(r, f"build site requirement of {pid!r}")
            sites.append(site)
        powers[pid] = Power(
            id=pid,
            name=str(raw.get("name", pid.title())),
            adjective=str(raw.get("adjective", raw.get("name", pid.title()))),
            abbrev=abbrev,
            home_centres=homes,
            units=units,
            build_sites=tuple(sites),
        )
    owners: dict[str, str] = {}
    for pw in powers.values():
        for h in pw.home_centres:
            if h in owners:
                raise VariantError(f"{source}: {h!r} is a home centre of both {owners[h]!r} and {pw.id!r}")
            owners[h] = pw.id
    occupied: dict[str, str] = {}
    for pw in powers.values():
        for u in pw.units:
            prov = province_of(u.split()[1])
            if prov in occupied:
                raise VariantError(f"{source}: two units start in {prov!r}")
            occupied[prov] = pw.id

    try:
        first_year = int(data.get("first_year", 1901))
        victory = int(data.get("victory_centres", 0)) or (sum(p.centre for p in provinces.values()) // 2 + 1)
    except (TypeError, ValueError):
        raise VariantError(f"{source}: first_year and victory_centres must be whole numbers") from None
    if not isinstance(data.get("options", {}), dict):
        raise VariantError(f"{source}: options must be an object")
    cluster = ClusterRules.from_data(data["cluster"], source, set(provinces)) if "cluster" in data else None
    options = RuleOptions.from_data(data.get("options", {}), source)
    order_kinds = (cluster.ORDER_KINDS if cluster is not None else frozenset()) | options.order_kinds
    return Variant(
        id=str(data["id"]),
        name=str(data["name"]),
        first_year=first_year,
        victory_centres=victory,
        options=options,
        provinces=provinces,
        powers=powers,
        edges=tuple(edges),
        source=source,
        cluster=cluster,
        order_kinds=order_kinds,
        multiples=cluster.multiples if cluster is not None else (),
        _army={k: frozenset(v) for k, v in army.items()},
        _fleet={k: frozenset(v) for k, v in fleet.items()},
        _kinds=kinds,
        _names=names,
    )


def _can_stand(provinces: dict[str, Province], unit_type: UnitType, location: str) -> bool:
    prov, _, coast = location.partition("/")
    p = provinces[prov]
    if unit_type == "A":
        return not coast and p.army_can_stand
    return coast in p.coasts if coast else p.fleet_can_stand


def reachable(variant: Variant, start: str, kinds: Iterable[UnitType] = UNIT_TYPES) -> set[str]:
    """Provinces reachable from ``start`` by any chain of moves of the given unit types."""
    seen = {start}
    todo = [start]
    while todo:
        prov = todo.pop()
        for t in kinds:
            for loc in variant.locations(prov):
                for n in variant.neighbours(t, loc):
                    np = province_of(n)
                    if np not in seen:
                        seen.add(np)
                        todo.append(np)
    return seen
