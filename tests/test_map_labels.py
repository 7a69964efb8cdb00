"""No province name is hidden: the renderer places names, unit spots, coast labels and centre dots apart,
and the build stops, naming each overlap, when they are not."""

from __future__ import annotations

import dataclasses

import pytest
import shapely
from adjutant.variant import maps_dir
from adjutant_maps import DRAWN, LabelCheckError, labels, layout, render_variant

VARIANTS = [v for v in DRAWN if (maps_dir() / f"{v}.json").exists()]
_cache: dict[str, layout.MapGeometry] = {}


def geometry(variant_id: str) -> layout.MapGeometry:
    if variant_id not in _cache:
        _cache[variant_id] = render_variant(variant_id)[1]
    return _cache[variant_id]


@pytest.fixture(scope="module", autouse=True)
def _drawn_once_per_module():
    yield
    _cache.clear()


def _copy(mg: layout.MapGeometry) -> layout.MapGeometry:
    return dataclasses.replace(mg, anchors={k: dict(v) for k, v in mg.anchors.items()})


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_no_name_meets_a_unit_spot_coast_label_centre_dot_or_name(variant_id):
    mg = geometry(variant_id)
    assert labels.overlaps(mg) == []
    labels.check(mg)  # does not raise


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_unit_spot_and_centre_dot_is_checked(variant_id):
    # the check covers every place the page draws a unit (a province and each of its coasts) and
    # every centre dot, with the unit's drawn size
    mg = geometry(variant_id)
    v = mg.variant
    spots = {item.what for item in labels.obstacles(mg) if item.what.startswith("unit spot")}
    locs = [p.id for p in v.provinces.values()] + [f"{p.id}/{c}" for p in v.provinces.values() for c in p.coasts]
    assert len(spots) == len(locs)
    dots = [item for item in labels.obstacles(mg) if item.what.startswith("centre dot")]
    assert len(dots) == sum(p.centre for p in v.provinces.values())
    box = next(item.box for item in labels.obstacles(mg) if item.what.startswith("unit spot"))
    assert box[2] - box[0] >= 27.5 and box[3] - box[1] >= 23.5  # a fleet's width, an army's height


def test_check_catches_a_unit_planted_on_a_name():
    mg = _copy(geometry("standard"))
    assert labels.overlaps(mg) == []
    mg.anchors["bur"]["unit"] = mg.anchors["par"]["label"]
    mg.anchors["bel"]["sc"] = (mg.anchors["hol"]["label"][0] + 8, mg.anchors["hol"]["label"][1])
    problems = labels.overlaps(mg)
    assert "name of Paris (par) overlaps unit spot of Burgundy (bur)" in problems
    assert "name of Holland (hol) overlaps centre dot of Belgium (bel)" in problems
    with pytest.raises(LabelCheckError, match=r"Paris \(par\) overlaps unit spot of Burgundy"):
        labels.check(mg)


def test_check_catches_two_names_and_a_coast_label():
    mg = _copy(geometry("standard"))
    x, y = mg.anchors["mun"]["label"]
    mg.anchors["ber"]["label"] = (x + 10, y + 3)
    mg.anchors["spa/nc"]["unit"] = mg.anchors["por"]["label"]
    problems = labels.overlaps(mg)
    assert "name of Berlin (ber) overlaps name of Munich (mun)" in problems
    assert "name of Portugal (por) overlaps coast label spa/nc" in problems


def test_render_stops_when_a_name_is_hidden(monkeypatch):
    real = labels.place

    def plant(mg):
        real(mg)
        mg.anchors["lon"]["unit"] = mg.anchors["lvp"]["label"]

    monkeypatch.setattr(labels, "place", plant)
    with pytest.raises(LabelCheckError, match=r"Liverpool \(lvp\) overlaps unit spot of London"):
        render_variant("standard")


def test_text_box_grows_with_the_text_and_its_size():
    short = labels.text_box("Lon", 15, 100, 100)
    long = labels.text_box("Lvp", 15, 100, 100)
    small = labels.text_box("Lon", 12, 100, 100)
    assert short[0] < 100 < short[2] and short[1] < 100 <= short[3]
    assert (small[2] - small[0]) < (short[2] - short[0])
    assert long[3] > short[3]  # p descends below the baseline
    # DejaVu Sans Bold at 15 px sets "Lon" about 30 px wide
    assert 28 < short[2] - short[0] < 40


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_names_stay_in_or_beside_their_province(variant_id):
    mg = geometry(variant_id)
    for pid, shape in mg.shapes.items():
        at = shapely.Point(mg.anchors[pid]["label"])
        if pid in mg.outside_labels:
            assert shape.distance(at) <= labels.OUTSIDE_REACH, pid
            # only provinces too small to hold a unit and a name are labelled from outside
            assert shape.area < 4 * (2 * labels.UNIT_HALF[0]) * (2 * labels.UNIT_HALF[1]), pid
        else:
            assert shape.buffer(0.5).contains(at), pid


def test_cline_names_once_hidden_are_clear():
    # issue 20: at the start of Cline V thirteen names were hidden (London, Liverpool, Naples...)
    mg = geometry("cline5")
    hit = {p.split(" overlaps")[0] for p in labels.overlaps(mg)}
    assert hit == set()
    for pid in ("lon", "lvp", "nap", "wal", "yor", "edi", "cly", "rom", "tus", "ven", "pie", "kie", "hol"):
        assert pid in mg.anchors and "label" in mg.anchors[pid]
