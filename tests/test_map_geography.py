"""The renderer's raster stage (adjutant_maps.geography): the land mask read from the GLOBE file only as far
as a board needs gives what indexing the whole mask gives, and the provinces as labelled pixels (specks
and small lakes dropped, a piece cut off from its seeds joined to its neighbour)."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest
from adjutant_maps import geography
from adjutant_maps.geography import DECOR_LAND, DECOR_WATER, Globe, Projection, Seed
from scipy import ndimage

# a coarse globe: 2-degree cells, north to south and west to east as in the package's file
LAT = 90.0 - 2.0 * np.arange(90)
LON = -180.0 + 2.0 * np.arange(180)


def _globe_file(tmp_path, mask: np.ndarray, lat: np.ndarray = LAT, lon: np.ndarray = LON) -> Globe:
    path = tmp_path / "globe.npz"
    np.savez_compressed(path, mask=mask, lat=lat, lon=lon)
    return Globe(path)


def test_a_window_of_the_globe_is_that_part_of_the_mask(tmp_path):
    ocean = np.random.default_rng(1).random((90, 181)) < 0.5  # 181 columns: not a whole number of bytes
    globe = _globe_file(tmp_path, ocean, lon=-180.0 + 2.0 * np.arange(181))
    assert globe.shape == (90, 181)
    assert (globe.lat0, globe.dlat, globe.lon0, globe.dlon) == (90.0, -2.0, -180.0, 2.0)
    # a window further down, then one above it (from the rows already read), then the last columns
    for r0, r1, c0, c1 in ((40, 47, 3, 100), (0, 5, 13, 14), (10, 90, 170, 181), (0, 90, 0, 181)):
        window = globe.window(r0, r1, c0, c1)
        assert window.dtype == bool
        assert np.array_equal(window, ocean[r0:r1, c0:c1])


def test_a_globe_file_that_is_not_a_boolean_grid_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a 2-D boolean array"):
        _globe_file(tmp_path, np.zeros((90, 180), dtype=np.uint8))
    with pytest.raises(ValueError, match="not a 2-D boolean array"):
        _globe_file(tmp_path, np.zeros((90, 180, 2), dtype=bool))
    path = tmp_path / "fortran.npz"
    np.savez_compressed(path, mask=np.asfortranarray(np.zeros((90, 180), dtype=bool)), lat=LAT, lon=LON)
    with pytest.raises(ValueError, match="not a 2-D boolean array"):
        Globe(path)
    with zipfile.ZipFile(path) as archive:
        assert "mask.npy" in archive.namelist()  # (refused for its array, not for a missing member)


def _land_mask_from_the_whole_grid(ocean: np.ndarray, proj: Projection, width: int, height: int) -> np.ndarray:
    """A pixel is land when most of its 3 x 3 samples are: each sample looked up in the whole grid."""
    votes = np.zeros((height, width), dtype=np.uint8)
    for dy in (np.arange(3) + 0.5) / 3:
        for dx in (np.arange(3) + 0.5) / 3:
            u, v = np.meshgrid(np.arange(width) + dx, np.arange(height) + dy)
            lon, lat = proj.inverse(u, v)
            i = np.clip(((np.clip(lat, -90, 90) - 90.0) / -2.0).astype(np.int64), 0, ocean.shape[0] - 1)
            j = np.clip(((((lon + 180.0) % 360.0 - 180.0) + 180.0) / 2.0).astype(np.int64), 0, ocean.shape[1] - 1)
            votes += ~ocean[i, j]
    return votes > 4


def test_the_land_mask_reads_the_globe_as_the_whole_grid_would(tmp_path, monkeypatch):
    ocean = np.random.default_rng(2).random((90, 180)) < 0.6
    globe = _globe_file(tmp_path, ocean)
    monkeypatch.setattr(geography, "globe", lambda: globe)
    proj, width, height = geography.make_projection(
        {"lon0": 15, "lat0": 50, "lat1": 40, "lat2": 60, "extent": [-2450, -2050, 3050, 2500], "km_per_unit": 40}
    )
    land = geography.land_mask(proj, width, height)
    assert land.shape == (height, width) == (114, 138)  # (more than one band of 64 rows)
    assert 0.2 < land.mean() < 0.8
    assert np.array_equal(land, _land_mask_from_the_whole_grid(ocean, proj, width, height))


def _seed(province: int, row: int, col: int, land: bool) -> Seed:
    return Seed(province, col + 0.5, row + 0.5, land)


def test_pixels_go_to_the_nearest_seed_of_their_own_land_or_water():
    land = np.zeros((10, 20), dtype=bool)
    land[:, :10] = True
    seeds = [_seed(0, 5, 1, True), _seed(1, 5, 8, True), _seed(2, 5, 15, False)]
    labels = geography.label_pixels(land, seeds, min_island=1, min_lake=1)
    assert (labels[:, :5] == 0).all() and (labels[:, 5:10] == 1).all() and (labels[:, 10:] == 2).all()


def test_specks_of_land_and_small_lakes_without_a_seed_are_dropped():
    land = np.zeros((20, 20), dtype=bool)
    land[:, :10] = True
    land[3, 3] = land[4, 4] = False  # two one-pixel lakes
    land[12:15, 12:15] = True  # a 9-pixel island
    land[2, 17] = True  # a speck
    land[17:20, 17:20] = True  # a 9-pixel island with a seed
    seeds = [_seed(0, 10, 2, True), _seed(1, 10, 15, False), _seed(2, 18, 18, True)]
    labels = geography.label_pixels(land, seeds, min_island=10, min_lake=2)
    assert labels[3, 3] == labels[4, 4] == DECOR_LAND  # the lakes are land of no province
    assert (labels[12:15, 12:15] == DECOR_WATER).all() and labels[2, 17] == DECOR_WATER  # the islands, water
    assert (labels[17:20, 17:20] == 2).all()  # kept: it has a seed
    assert (labels[:, :10] >= 0).sum() == 198 and (labels[:, 10:] >= 0).sum() == 200 - 9 - 1  # the rest kept
    labels = geography.label_pixels(land, seeds, min_island=5, min_lake=1)
    assert (labels[12:15, 12:15] == DECOR_LAND).all() and labels[2, 17] == DECOR_WATER
    assert labels[3, 3] == labels[4, 4] == DECOR_WATER


def test_a_piece_cut_off_from_its_seeds_joins_the_neighbour_it_shares_most_border_with():
    # a strait (column 10) cuts the top of the board in two: the pixels just east of it are nearest
    # province 0's seed, west of it, but cut off from it; they touch province 2 along more border than 1
    land = np.ones((12, 30), dtype=bool)
    land[:10, 10] = False
    seeds = [_seed(0, 2, 8, True), _seed(1, 11, 5, True), _seed(2, 6, 20, True)]
    labels = geography.label_pixels(land, seeds, min_island=1, min_lake=1)
    assert [_pieces(labels, p) for p in (0, 1, 2)] == [1, 1, 1]
    assert (labels[:9, 11:13] == 2).all() and (labels[9, 11:13] == 1).all()
    assert not (labels[:, 10:] == 0).any()
    # the pocket is nearer province 0's seed than any other (the nearest seed alone would give it to 0);
    # province 0 keeps exactly the pixels west of the strait that are nearest its seed
    rows, cols = np.indices(land.shape)
    distances = np.stack([np.hypot(cols + 0.5 - s.u, rows + 0.5 - s.v) for s in seeds])
    nearest = np.array([s.province for s in seeds])[distances.argmin(axis=0)]
    assert (nearest[:9, 11:13] == 0).all()
    assert np.array_equal(labels == 0, land & (nearest == 0) & (cols < 10))


def _pieces(labels: np.ndarray, province: int) -> int:
    return int(ndimage.label(labels == province)[1])
