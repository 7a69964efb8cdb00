"""Real geography on a raster: the land mask, the projection, and the provinces as labelled pixels.

The land mask is the public-domain GLOBE 1 km land/ocean mask shipped by the ``global-land-mask``
package (NOAA data).  It is sampled on a grid in a Lambert conformal conic projection (the classic
board is close to one), edited by the few hand-drawn patches a variant's geo file lists (straits the
board closes, the Caspian, which GLOBE counts as land), and each province is the set of pixels nearest
to one of its seeds inside the land or sea it lies in: a Voronoi diagram clipped to land or sea,
computed on pixels so that a cell never leaks across a peninsula.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import ndimage
from scipy.spatial import cKDTree

EARTH_RADIUS_KM = 6371.0
DECOR_LAND = -1  # land that belongs to no province (Ireland on the standard board)
DECOR_WATER = -2  # water that belongs to no province (the Caspian, the Sea of Marmara)
SUPERSAMPLE = 3  # land-mask samples per pixel side; a pixel is land when most samples are


@dataclass(frozen=True)
class Projection:
    """A spherical Lambert conformal conic projection onto SVG units (y grows downwards)."""

    lon0: float
    lat0: float
    lat1: float
    lat2: float
    xmin_km: float
    ymax_km: float
    km_per_unit: float

    @functools.cached_property
    def _constants(self) -> tuple[float, float, float]:
        p1, p2, p0 = (math.radians(v) for v in (self.lat1, self.lat2, self.lat0))
        if abs(p1 - p2) < 1e-9:
            n = math.sin(p1)
        else:
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
            )
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = EARTH_RADIUS_KM * f / math.tan(math.pi / 4 + p0 / 2) ** n
        return n, f, rho0

    def km(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n, f, rho0 = self._constants
        rho = EARTH_RADIUS_KM * f / np.tan(np.pi / 4 + np.radians(lat) / 2) ** n
        theta = n * np.radians(np.asarray(lon) - self.lon0)
        return rho * np.sin(theta), rho0 - rho * np.cos(theta)

    def forward(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Longitude/latitude in degrees to SVG units."""
        x, y = self.km(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float))
        return (x - self.xmin_km) / self.km_per_unit, (self.ymax_km - y) / self.km_per_unit

    def point(self, lonlat: tuple[float, float] | list[float]) -> tuple[float, float]:
        x, y = self.forward(np.array([lonlat[0]]), np.array([lonlat[1]]))
        return float(x[0]), float(y[0])

    def inverse(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """SVG units to longitude/latitude in degrees."""
        n, f, rho0 = self._constants
        x = u * self.km_per_unit + self.xmin_km
        y = self.ymax_km - v * self.km_per_unit
        rho = np.sign(n) * np.hypot(x, rho0 - y)
        theta = np.arctan2(x * np.sign(n), (rho0 - y) * np.sign(n))
        lat = np.degrees(2 * np.arctan((EARTH_RADIUS_KM * f / rho) ** (1 / n)) - np.pi / 2)
        lon = self.lon0 + np.degrees(theta / n)
        return lon, lat


def make_projection(spec: dict[str, Any]) -> tuple[Projection, int, int]:
    """The projection and grid size (width, height in units) from a geo file's ``projection``.

    ``extent`` is ``[west_km, south_km, east_km, north_km]`` in projected kilometres around
    (``lon0``, ``lat0``).
    """
    west, south, east, north = spec["extent"]
    res = float(spec["km_per_unit"])
    proj = Projection(
        lon0=float(spec["lon0"]), lat0=float(spec["lat0"]), lat1=float(spec["lat1"]),
        lat2=float(spec["lat2"]), xmin_km=float(west), ymax_km=float(north), km_per_unit=res,
    )
    return proj, int(round((east - west) / res)), int(round((north - south) / res))


@functools.lru_cache(maxsize=1)
def _globe() -> tuple[np.ndarray, float, float, float, float]:
    """The GLOBE mask (True = ocean) and its grid: first lat, lat step, first lon, lon step."""
    from global_land_mask import globe  # loads ~1 GB once; build time only

    lat, lon = globe._lat, globe._lon
    return globe._mask, float(lat[0]), float(lat[1] - lat[0]), float(lon[0]), float(lon[1] - lon[0])


def land_mask(proj: Projection, width: int, height: int) -> np.ndarray:
    """Boolean (height, width) raster: True where most of the pixel is land."""
    ocean, lat0, dlat, lon0, dlon = _globe()
    s = SUPERSAMPLE
    offsets = (np.arange(s) + 0.5) / s
    votes = np.zeros((height, width), dtype=np.uint8)
    cols = np.arange(width, dtype=float)
    for row in range(0, height, 64):  # in bands, to keep memory small
        rows = np.arange(row, min(row + 64, height), dtype=float)
        for dy in offsets:
            for dx in offsets:
                u, v = np.meshgrid(cols + dx, rows + dy)
                lon, lat = proj.inverse(u, v)
                lon = (lon + 180.0) % 360.0 - 180.0
                lat = np.clip(lat, -90.0, 90.0)
                i = np.clip(((lat - lat0) / dlat).astype(np.int64), 0, ocean.shape[0] - 1)
                j = np.clip(((lon - lon0) / dlon).astype(np.int64), 0, ocean.shape[1] - 1)
                votes[row:row + len(rows)] += ~ocean[i, j]
    return votes * 2 > s * s


def paint(mask: np.ndarray, polygon_units: np.ndarray, value: bool) -> None:
    """Set the pixels whose centres fall inside a polygon (vertices in SVG units) to ``value``."""
    import shapely

    poly = shapely.Polygon(polygon_units)
    x0, y0, x1, y1 = poly.bounds
    h, w = mask.shape
    c0, c1 = max(int(x0), 0), min(int(math.ceil(x1)) + 1, w)
    r0, r1 = max(int(y0), 0), min(int(math.ceil(y1)) + 1, h)
    if c0 >= c1 or r0 >= r1:
        return
    xs, ys = np.meshgrid(np.arange(c0, c1) + 0.5, np.arange(r0, r1) + 0.5)
    shapely.prepare(poly)
    inside = shapely.contains_xy(poly, xs, ys)
    mask[r0:r1, c0:c1][inside] = value


@dataclass
class Seed:
    province: int  # index into the province list, or DECOR_LAND / DECOR_WATER for a neutral seed
    u: float
    v: float
    land: bool


def label_pixels(land: np.ndarray, seeds: list[Seed], min_island: int, min_lake: int) -> np.ndarray:
    """Assign every pixel to a province index, ``DECOR_LAND`` or ``DECOR_WATER``.

    Land pixels go to the nearest land seed in the same piece of land, water pixels to the nearest
    sea seed in the same body of water; pieces with no seed are decoration.  A province piece cut off
    from all of its seeds joins the neighbour it shares most border with, so every province is one
    connected shape (or one shape per seeded island).
    """
    h, w = land.shape
    labels = np.full((h, w), DECOR_LAND, dtype=np.int32)
    for medium_is_land in (True, False):
        medium = land if medium_is_land else ~land
        comps, ncomp = ndimage.label(medium)
        mine = [s for s in seeds if s.land == medium_is_land]
        seed_comp: dict[int, list[Seed]] = {}
        for s in mine:
            r, c = min(max(int(s.v), 0), h - 1), min(max(int(s.u), 0), w - 1)
            seed_comp.setdefault(int(comps[r, c]), []).append(s)
        if 0 in seed_comp:
            bad = seed_comp[0][0]
            raise ValueError(f"seed of province #{bad.province} at {bad.u:.0f},{bad.v:.0f} is not in its medium")
        sizes = np.bincount(comps.ravel(), minlength=ncomp + 1)
        decor = DECOR_LAND if medium_is_land else DECOR_WATER
        labels[medium] = decor
        for comp, group in seed_comp.items():
            rows, cols = np.nonzero(comps == comp)
            pts = np.array([(s.u, s.v) for s in group])
            _, nearest = cKDTree(pts).query(np.column_stack([cols + 0.5, rows + 0.5]))
            labels[rows, cols] = np.array([s.province for s in group])[nearest]
        # unseeded specks of land become water and small unseeded lakes become land
        small = sizes < (min_island if medium_is_land else min_lake)
        for comp in range(1, ncomp + 1):
            if comp not in seed_comp and small[comp]:
                labels[comps == comp] = DECOR_WATER if medium_is_land else DECOR_LAND
    _reattach_strays(labels, seeds)
    return labels


def _reattach_strays(labels: np.ndarray, seeds: list[Seed]) -> None:
    h, w = labels.shape
    is_land = np.zeros(max(s.province for s in seeds) + 1, dtype=bool)
    for s in seeds:
        if s.province >= 0:
            is_land[s.province] = s.land
    seed_px: dict[int, list[tuple[int, int]]] = {}
    for s in seeds:
        seed_px.setdefault(s.province, []).append((min(max(int(s.v), 0), h - 1), min(max(int(s.u), 0), w - 1)))
    for _ in range(8):
        changed = False
        for prov in sorted(p for p in seed_px if p >= 0):
            mask = labels == prov
            comps, n = ndimage.label(mask)
            if n <= 1:
                continue
            keep = {int(comps[r, c]) for r, c in seed_px[prov]}
            for comp in range(1, n + 1):
                if comp in keep:
                    continue
                piece = comps == comp
                ring = ndimage.binary_dilation(piece) & ~piece
                around = labels[ring]
                around = around[around >= 0]
                around = around[is_land[around] == is_land[prov]]
                if around.size == 0:
                    continue
                labels[piece] = int(np.bincount(around).argmax())
                changed = True
        if not changed:
            return
