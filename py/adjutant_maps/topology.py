"""From labelled pixels to a simplified polygon coverage, and the borders that coverage draws.

The borders between differently labelled pixels are polygonised once, so neighbouring shapes share
their edges exactly; the coverage is then simplified as a whole (GEOS coverage simplification), which
keeps it gap-free and never makes two shapes touch that did not.  The adjacency check runs on these
simplified shapes: the ones written to the SVG.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry


def faces_from_labels(labels: np.ndarray) -> tuple[list[BaseGeometry], list[int]]:
    """Polygons (in pixel units) of the connected pieces of each label, and each piece's label."""
    h, w = labels.shape
    segs = []
    # horizontal edges between row r-1 and r, including the frame's top and bottom
    padded = np.full((h + 2, w), -99, dtype=labels.dtype)
    padded[1:-1] = labels
    r, c = np.nonzero(padded[1:] != padded[:-1])
    segs.append(np.stack([np.column_stack([c, r]), np.column_stack([c + 1, r])], axis=1))
    padded = np.full((h, w + 2), -99, dtype=labels.dtype)
    padded[:, 1:-1] = labels
    r, c = np.nonzero(padded[:, 1:] != padded[:, :-1])
    segs.append(np.stack([np.column_stack([c, r]), np.column_stack([c, r + 1])], axis=1))
    lines = shapely.linestrings(np.concatenate(segs).astype(float))
    merged = shapely.line_merge(shapely.multilinestrings(lines))
    polys = shapely.get_parts(shapely.polygonize(shapely.get_parts(merged)))
    pts = shapely.point_on_surface(polys)
    xs = np.clip(shapely.get_x(pts).astype(int), 0, w - 1)
    ys = np.clip(shapely.get_y(pts).astype(int), 0, h - 1)
    # polygonize returns holes as faces too; a face's label is the pixel under a point inside it
    return list(polys), [int(v) for v in labels[ys, xs]]


def simplify(faces: list[BaseGeometry], tolerance: float) -> list[BaseGeometry]:
    out = shapely.coverage_simplify(np.array(faces, dtype=object), tolerance)
    return [shapely.set_precision(g, 0.1) for g in out]


def merge_by_label(faces: list[BaseGeometry], face_labels: list[int]) -> dict[int, BaseGeometry]:
    groups: dict[int, list[BaseGeometry]] = defaultdict(list)
    for g, lab in zip(faces, face_labels, strict=True):
        if not g.is_empty:
            groups[lab].append(g)
    return {lab: shapely.union_all(gs) for lab, gs in sorted(groups.items())}


def shared_borders(shapes: dict[int, BaseGeometry]) -> dict[tuple[int, int], float]:
    """Length of the border each pair of labelled shapes shares (pairs with a > b omitted)."""
    keys = sorted(shapes)
    geoms = [shapes[k] for k in keys]
    bounds = [g.boundary for g in geoms]
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    out: dict[tuple[int, int], float] = {}
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        length = shapely.intersection(bounds[i], bounds[j]).length
        if length > 0:
            out[(keys[i], keys[j])] = length
    return out
