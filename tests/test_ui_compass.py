"""adjutant_ui.compass under CPython: an arrow key goes to the nearest of the map's buttons that way."""

from __future__ import annotations

import pytest
from adjutant_ui.compass import nearest_towards

#: a plus sign around the middle point (0): one point each way, at different distances
PLUS = [(0.0, 0.0), (10.0, 0.0), (0.0, -20.0), (-30.0, 0.0), (0.0, 40.0)]


@pytest.mark.parametrize(("key", "expected"), [("ArrowRight", 1), ("ArrowUp", 2), ("ArrowLeft", 3), ("ArrowDown", 4)])
def test_each_arrow_goes_to_the_point_that_way(key: str, expected: int) -> None:
    # y grows downwards, as in the SVG: Up is the point at y -20
    assert nearest_towards(PLUS, 0, key) == expected


def test_the_nearest_point_that_way_wins_not_the_next_in_the_list() -> None:
    points = [(0.0, 0.0), (50.0, 0.0), (-5.0, 0.0), (20.0, 2.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 3
    assert nearest_towards(points, 0, "ArrowLeft") == 2
    # from the far right, Left comes back through the nearer point, not straight to the start
    assert nearest_towards(points, 1, "ArrowLeft") == 3


def test_a_point_in_the_45_degree_cone_beats_a_nearer_one_outside_it() -> None:
    # (10, -11) is more up than right: Up takes it, and Right takes the point in its cone, though further
    points = [(0.0, 0.0), (10.0, -11.0), (40.0, 0.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 2
    assert nearest_towards(points, 0, "ArrowUp") == 1
    # on the cone's edge (45 degrees exactly) it lies both ways
    edge = [(0.0, 0.0), (10.0, 10.0)]
    assert nearest_towards(edge, 0, "ArrowRight") == 1
    assert nearest_towards(edge, 0, "ArrowDown") == 1


def test_a_point_on_the_axis_beats_a_nearer_one_well_off_it() -> None:
    # (30, 28) is nearer than (45, 0) (41 against 45) but nearly off the cone (55 in all): straight ahead
    # is chosen
    points = [(0.0, 0.0), (30.0, 28.0), (45.0, 0.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 2
    # a point a little off the axis still beats one straight ahead but much further
    points = [(0.0, 0.0), (20.0, 3.0), (45.0, 0.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 1


def test_equal_scores_go_to_the_earlier_point_in_list_order() -> None:
    # two points mirrored about the axis score the same: the earlier in the list wins, whichever it is
    assert nearest_towards([(0.0, 0.0), (20.0, 5.0), (20.0, -5.0)], 0, "ArrowRight") == 1
    assert nearest_towards([(0.0, 0.0), (20.0, -5.0), (20.0, 5.0)], 0, "ArrowRight") == 1
    assert nearest_towards([(20.0, 5.0), (20.0, -5.0), (0.0, 0.0)], 2, "ArrowRight") == 0


def test_with_nothing_in_the_cone_the_nearest_on_that_side_is_taken() -> None:
    # (10, -11) lies outside Right's cone but to the right: with nothing in the cone, Right takes it
    assert nearest_towards([(0.0, 0.0), (10.0, -11.0)], 0, "ArrowRight") == 1
    # of several outside the cone, the least distance plus half the offset: (14, 15.5) is further than
    # (1, 20) (20.9 against 20.0) but nearer the axis (28.6 against 30.0 in all)
    points = [(0.0, 0.0), (1.0, 20.0), (14.0, 15.5)]
    assert nearest_towards(points, 0, "ArrowRight") == 2
    # a point exactly across the axis (straight down, for Right) is on neither side: not taken
    assert nearest_towards([(0.0, 0.0), (0.0, 10.0)], 0, "ArrowRight") is None


def test_a_point_just_outside_every_neighbours_cone_is_still_reached() -> None:
    # 1 lies just inside Right's cone from 0 (44.7 degrees below the axis), where Right prefers 2 (straight
    # ahead, a little further), and just outside Down's: Down, with nothing in its cone, reaches it, so
    # the arrows do not cut it off
    points = [(0.0, 0.0), (10.0, 9.9), (15.0, 0.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 2
    assert nearest_towards(points, 0, "ArrowDown") == 1


def test_with_nothing_that_way_the_focus_stays() -> None:
    # the rightmost point: Right has nowhere to go (no wrap to the far left)
    assert nearest_towards(PLUS, 1, "ArrowRight") is None
    # alone on the map, or every other point at the same place
    assert nearest_towards([(5.0, 5.0)], 0, "ArrowUp") is None
    assert nearest_towards([(5.0, 5.0), (5.0, 5.0)], 0, "ArrowLeft") is None


def test_points_not_drawn_and_unknown_keys_go_nowhere() -> None:
    # a button with no place on the map is never chosen, and from one nothing is
    points = [(0.0, 0.0), None, (30.0, 0.0)]
    assert nearest_towards(points, 0, "ArrowRight") == 2
    assert nearest_towards(points, 1, "ArrowRight") is None
    # no focused button in the list, or a key that is not an arrow
    assert nearest_towards(points, -1, "ArrowRight") is None
    assert nearest_towards(points, 3, "ArrowRight") is None
    assert nearest_towards(points, 0, "Home") is None
