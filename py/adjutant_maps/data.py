"""What the renderer reads: the variant (through the engine's loader) and its geo file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjutant import load_variant
from adjutant.map.variant import Variant, maps_dir, province_of

SPECIAL_KINDS = ("canal", "passage", "box", "weak")


class GeoError(ValueError):
    """A geo file is missing, malformed, or does not fit its variant."""


def geo_dir() -> Path:
    return maps_dir() / "geo"


def variant(variant_id: str) -> Variant:
    return load_variant(variant_id)


def _read_geo(name: str, seen: tuple[str, ...]) -> dict[str, Any]:
    path = geo_dir() / f"{name}.json"
    if name in seen:
        raise GeoError(f"{path}: 'extends' loops back to {name}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise GeoError(f"{path}: no geo file for variant {name!r}") from exc
    except ValueError as exc:
        raise GeoError(f"{path}: not valid JSON ({exc})") from exc
    base_name = data.get("extends")
    if not base_name:
        return dict(data)
    base = _read_geo(base_name, (*seen, name))
    merged = dict(base)
    replace = set(data.get("replace", []))
    for key, value in data.items():
        if key in replace:
            merged[key] = value
        elif key in ("seeds", "coasts", "anchors"):
            merged[key] = {**base.get(key, {}), **value}
        elif key in ("land", "water", "neutral", "corners", "canals"):
            merged[key] = [*base.get(key, []), *value]
        elif key == "projection":
            merged[key] = {**base.get(key, {}), **value}
        else:
            merged[key] = value
    for key in replace - set(data):
        merged.pop(key, None)
    for pid in data.get("drop_seeds", []):
        merged["seeds"].pop(pid, None)
    return merged


def geo_name_for(variant_id: str) -> str:
    """The geo file a variant is drawn from: its own, else the one of the variant it extends."""
    name = variant_id
    seen: list[str] = []
    while not (geo_dir() / f"{name}.json").exists():
        seen.append(name)
        raw = json.loads((maps_dir() / f"{name}.json").read_text(encoding="utf-8"))
        base = raw.get("extends")
        if not base or base in seen:
            missing = geo_dir() / f"{variant_id}.json"
            raise GeoError(f"{missing}: no geo file for {variant_id!r} or a variant it extends")
        name = base
    return name


def geo(variant_id: str) -> dict[str, Any]:
    return _read_geo(geo_name_for(variant_id), ())


@dataclass(frozen=True)
class Link:
    a: str  # location as written in the data (may name a coast)
    b: str
    who: str
    kind: str | None

    @property
    def pair(self) -> tuple[str, str]:
        pa, pb = province_of(self.a), province_of(self.b)
        return (pa, pb) if pa < pb else (pb, pa)


def links(v: Variant) -> list[Link]:
    return [Link(e.a, e.b, e.who, e.kind) for e in v.edges]
