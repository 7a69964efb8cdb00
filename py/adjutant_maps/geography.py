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
import importlib.util
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
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


class Globe:
    """The GLOBE mask (True = ocean) of the ``global-land-mask`` package, read from its ``.npz`` only as
    far down (from the North Pole) as the boards drawn so far reach, and kept 8 pixels to a byte: the
    whole mask is 21,600 x 43,200 bytes (0.9 GB) once decompressed, and numpy's reading of it takes
    5 s of CPU where Europe needs only its northern half.

    ``lat0``/``dlat`` and ``lon0``/``dlon``: the first row's latitude and the step between rows, the
    first column's longitude and the step between columns, in degrees; ``shape``: the whole mask's."""

    def __init__(self, path: Path) -> None:
        archive = zipfile.ZipFile(path)
        with archive.open("lat.npy") as f:
            lat = np.lib.format.read_array(f)
        with archive.open("lon.npy") as f:
            lon = np.lib.format.read_array(f)
        self.lat0, self.dlat = float(lat[0]), float(lat[1] - lat[0])
        self.lon0, self.dlon = float(lon[0]), float(lon[1] - lon[0])
        self._stream = archive.open("mask.npy")
        version = np.lib.format.read_magic(self._stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(self._stream)
        if len(shape) != 2 or fortran or dtype != np.dtype(bool):
            raise ValueError(f"{path}: mask.npy is not a 2-D boolean array in C order")
        self.shape: tuple[int, int] = shape
        # the rows read so far (the first ``_rows``), np.packbits along each row: memory is only taken
        # as rows are written
        self._packed = np.empty((shape[0], (shape[1] + 7) // 8), dtype=np.uint8)
        self._rows = 0

    def window(self, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
        """The mask's rows ``r0:r1`` and columns ``c0:c1``, reading the file further down if need be."""
        width = self.shape[1]
        while self._rows < min(r1, self.shape[0]):
            n = min(512, self.shape[0] - self._rows)
            chunk = np.frombuffer(self._stream.read(n * width), dtype=bool).reshape(n, width)
            self._packed[self._rows:self._rows + n] = np.packbits(chunk, axis=1)
            self._rows += n
        bits = np.unpackbits(self._packed[r0:r1, c0 // 8:(c1 + 7) // 8], axis=1)
        return bits[:, c0 % 8:c0 % 8 + c1 - c0].astype(bool)


@functools.lru_cache(maxsize=1)
def globe() -> Globe:
    """The GLOBE mask, opened once per process (build time only)."""
    spec = importlib.util.find_spec("global_land_mask")  # found, not imported: importing it reads the whole mask
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("the map renderer needs the global-land-mask package (requirements.txt)")
    return Globe(Path(spec.origin).parent / "globe_combined_mask_compressed.npz")


def land_mask(proj: Projection, width: int, height: int) -> np.ndarray:
    """Boolean (height, width) raster: True where most of the pixel is land."""
    return _land_mask(proj, width, height).copy()


@functools.lru_cache(maxsize=2)  # boards drawn on the same grid (Cline V and VI) read it once
def _land_mask(proj: Projection, width: int, height: int) -> np.ndarray:
    mask = globe()
    s = SUPERSAMPLE
    offsets = (np.arange(s) + 0.5) / s
    votes = np.zeros((height, width), dtype=np.uint8)
    cols = np.arange(width, dtype=float)
    for row in range(0, height, 64):  # in bands, to keep memory small
        rows = np.arange(row, min(row + 64, height), dtype=float)
        samples = []
        for dy in offsets:
            for dx in offsets:
                lon, lat = proj.inverse((cols + dx)[None, :], (rows + dy)[:, None])  # a row and a column
                lon = (lon + 180.0) % 360.0 - 180.0
                lat = np.clip(lat, -90.0, 90.0)
                i = np.clip(((lat - mask.lat0) / mask.dlat).astype(np.int64), 0, mask.shape[0] - 1)
                j = np.clip(((lon - mask.lon0) / mask.dlon).astype(np.int64), 0, mask.shape[1] - 1)
                samples.append((i, j))
        # the band's samples read from the part of the mask they fall in (small, so read fast)
        r0, c0 = min(int(i.min()) for i, _ in samples), min(int(j.min()) for _, j in samples)
        r1, c1 = max(int(i.max()) for i, _ in samples) + 1, max(int(j.max()) for _, j in samples) + 1
        ocean = mask.window(r0, r1, c0, c1)
        for i, j in samples:
            votes[row:row + len(rows)] += ~ocean[i - r0, j - c0]
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
        boxes = ndimage.find_objects(comps)
        for comp, group in seed_comp.items():
            box = boxes[comp - 1]
            rows, cols = np.nonzero(comps[box] == comp)
            rows, cols = rows + box[0].start, cols + box[1].start
            pts = np.array([(s.u, s.v) for s in group])
            _, nearest = cKDTree(pts).query(np.column_stack([cols + 0.5, rows + 0.5]))
            labels[rows, cols] = np.array([s.province for s in group])[nearest]
        # unseeded specks of land become water and small unseeded lakes become land
        small = sizes < (min_island if medium_is_land else min_lake)
        small[0] = False
        small[list(seed_comp)] = False
        labels[small[comps]] = DECOR_WATER if medium_is_land else DECOR_LAND
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
    provinces = sorted(p for p in seed_px if p >= 0)
    for _ in range(8):
        changed = False
        # each province's bounding box, a pixel wider (for the ring round a piece), grown as pieces
        # join it: a province is worked on inside its box, not on the whole raster
        boxes = {p: [box[0].start - 1, box[0].stop + 1, box[1].start - 1, box[1].stop + 1]
                 for p, box in enumerate(ndimage.find_objects(np.where(labels >= 0, labels + 1, 0)))
                 if box is not None}
        for prov in provinces:
            if prov not in boxes:
                continue
            r0, r1, c0, c1 = boxes[prov]
            r0, c0 = max(r0, 0), max(c0, 0)
            part = labels[r0:r1, c0:c1]  # a view: what is written to it is written to labels
            comps, n = ndimage.label(part == prov)
            if n <= 1:
                continue
            keep = {int(comps[r - r0, c - c0]) for r, c in seed_px[prov] if r0 <= r < r1 and c0 <= c < c1}
            for comp in range(1, n + 1):
                if comp in keep:
                    continue
                piece = comps == comp
                ring = ndimage.binary_dilation(piece) & ~piece
                around = part[ring]
                around = around[around >= 0]
                around = around[is_land[around] == is_land[prov]]
                if around.size == 0:
                    continue
                other = int(np.bincount(around).argmax())
                part[piece] = other
                rows, cols = np.nonzero(piece)
                box = boxes[other]
                boxes[other] = [min(box[0], r0 + int(rows.min()) - 1), max(box[1], r0 + int(rows.max()) + 2),
                                min(box[2], c0 + int(cols.min()) - 1), max(box[3], c0 + int(cols.max()) + 2)]
                changed = True
        if not changed:
            return
