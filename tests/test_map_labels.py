"""No province name is hidden and no unit hides another or a centre dot: the renderer places names, unit
spots (the dislodged units' too), coast labels and centre dots apart, and the build stops, naming each
overlap, when they are not."""

from __future__ import annotations

import dataclasses
import math

import pytest
import shapely
from adjutant.map.variant import maps_dir
from adjutant.pictures import pieces
from adjutant_maps import DRAWN, LabelCheckError, build_maps, labels, layout, render_variant
from drawn_maps import drawn

VARIANTS = [v for v in DRAWN if (maps_dir() / f"{v}.json").exists()]


def geometry(variant_id: str) -> layout.MapGeometry:
    """The variant's map geometry, drawn once per test run (tests/drawn_maps.py): copy it to change it."""
    return drawn(variant_id)[1]


def _copy(mg: layout.MapGeometry) -> layout.MapGeometry:
    return dataclasses.replace(mg, anchors={k: dict(v) for k, v in mg.anchors.items()})


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_no_name_meets_a_unit_spot_coast_label_centre_dot_or_name(variant_id):
    mg = geometry(variant_id)
    assert labels.overlaps(mg) == []
    labels.check(mg)  # does not raise


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_unit_spot_and_centre_dot_is_checked(variant_id):
    # the check covers every place the page draws a unit (a province and each of its coasts, and the
    # unit dislodged from each; no unit stands in an impassable province) and every centre dot, with
    # the unit's drawn size
    mg = geometry(variant_id)
    v = mg.variant
    spots = {item.what for item in labels.obstacles(mg) if item.what.startswith("unit spot")}
    held = [p for p in v.provinces.values() if p.type != "impassable"]
    locs = [p.id for p in held] + [f"{p.id}/{c}" for p in held for c in p.coasts]
    assert len(held) < len(v.provinces)  # (each drawn board has one: Switzerland)
    assert len(spots) == len(locs)
    dislodged = {item.loc: item.box for item in labels.unit_spots(mg) if item.kind == "dislodged"}
    assert sorted(dislodged) == sorted(locs)
    x, y = mg.anchors[locs[0]]["unit"]
    box = dislodged[locs[0]]
    assert (box[0] + box[2]) / 2 == pytest.approx(x + pieces.DISLODGED_OFFSET[0])
    assert (box[1] + box[3]) / 2 == pytest.approx(y + pieces.DISLODGED_OFFSET[1])
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


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_unit_is_drawn_inside_the_map(variant_id):
    # a unit, or one dislodged from there, never hangs off the board or into the legend
    mg = geometry(variant_id)
    for item in labels.unit_spots(mg):
        x0, y0, x1, y1 = item.box
        assert x0 >= 0 and x1 <= mg.width and y0 >= 0 and y1 <= mg.svg_height, item.what


def test_milan_centre_is_clear_of_every_unit_on_cline6():
    # issue 20: on Cline VI Milan's centre dot was under a neighbouring province's unit
    mg = geometry("cline6")
    assert mg.variant.provinces["mil"].centre
    dot = next(item for item in labels.dots(mg) if item.owner == "mil")
    assert [item.what for item in labels.unit_spots(mg) if labels.boxes_meet(item.box, dot.box)] == []


def test_check_catches_units_on_units_and_on_centre_dots():
    mg = _copy(geometry("standard"))
    mg.anchors["bur"]["unit"] = mg.anchors["par"]["unit"]  # a unit on a neighbour's
    mg.anchors["spa/nc"]["unit"] = mg.anchors["spa"]["unit"]  # a coast's unit on its province's
    mg.anchors["mun"]["unit"] = labels.dislodged_point(mg.anchors["kie"]["unit"])  # on a dislodged unit
    mg.anchors["pie"]["unit"] = mg.anchors["ven"]["sc"]  # on a centre dot
    problems = labels.overlaps(mg)
    assert "unit spot of Burgundy (bur) overlaps unit spot of Paris (par)" in problems
    assert "unit spot of Spain (spa) overlaps unit spot of Spain NC (spa/nc)" in problems
    assert "dislodged-unit spot of Kiel (kie) overlaps unit spot of Munich (mun)" in problems
    assert "unit spot of Piedmont (pie) overlaps centre dot of Venice (ven)" in problems
    with pytest.raises(LabelCheckError, match=r"unit spot of Burgundy \(bur\) overlaps unit spot of Paris"):
        labels.check(mg)


def test_a_unit_and_the_unit_dislodged_from_it_may_overlap():
    # the page draws a dislodged unit half over the one that took its place; one province holds one
    # dislodged unit, so its coasts' dislodged spots may meet too; nothing else may
    mg = _copy(geometry("standard"))
    assert labels.overlaps(mg) == []
    spots = {(item.loc, item.kind): item for item in labels.unit_spots(mg)}
    assert labels.boxes_meet(spots["lon", "unit"].box, spots["lon", "dislodged"].box)
    mg.anchors["spa/sc"]["unit"] = (mg.anchors["spa/nc"]["unit"][0] + 1, mg.anchors["spa/nc"]["unit"][1])
    problems = labels.overlaps(mg)
    assert "unit spot of Spain NC (spa/nc) overlaps unit spot of Spain SC (spa/sc)" in problems
    assert not any("dislodged-unit spot of Spain NC (spa/nc) overlaps dislodged-unit spot of Spain SC" in p
                   for p in problems)
    assert "dislodged-unit spot of Spain NC (spa/nc) overlaps unit spot of Spain SC (spa/sc)" in problems


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
        mg.anchors["sev"]["sc"] = mg.anchors["ukr"]["unit"]

    monkeypatch.setattr(labels, "place", plant)
    with pytest.raises(LabelCheckError) as caught:
        render_variant("standard")
    assert "name of Liverpool (lvp) overlaps unit spot of London (lon)" in str(caught.value)
    assert "unit spot of Ukraine (ukr) overlaps centre dot of Sevastopol (sev)" in str(caught.value)


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


@pytest.mark.parametrize("variant_id", ["standard", "loeb9"])
def test_on_the_larger_boards_every_name_is_inside_its_province(variant_id):
    # only a province that found no room twice has its name beside it: none on these boards
    assert geometry(variant_id).outside_labels == set()


@pytest.mark.parametrize("variant_id", ["standard", "cluster", "coast_running"])
def test_every_mark_beside_a_unit_is_checked(variant_id):
    # the page draws an illegal order's "!" beside any unit; in Cluster a strength badge and an order's
    # letter (R, T, M) beside any unit and a site's diamond beside a province's own spot; in Coast-Running
    # a protect order's shield beside an army (a province's own spot): each is an item of the check
    mg = geometry(variant_id)
    marks = {(item.loc, item.what.split(" at ")[0]) for item in labels.unit_spots(mg) if item.kind == "mark"}
    held = [loc for loc in mg.anchors if labels.holds_units(mg, loc.split("/")[0])]
    own_spots = {loc for loc in held if "/" not in loc}
    assert {loc for loc, what in marks if what == "illegal-order mark"} == set(held)
    cluster = mg.variant.cluster is not None
    assert {loc for loc, what in marks if what == "strength badge"} == (set(held) if cluster else set())
    assert {loc for loc, what in marks if what == "order badge"} == (set(held) if cluster else set())
    assert {loc for loc, what in marks if what == "site diamond"} == (own_spots if cluster else set())
    protect = variant_id == "coast_running"
    assert {loc for loc, what in marks if what == "protect shield"} == (own_spots if protect else set())
    rings = [item for item in labels.dots(mg) if item.kind == "ring"]
    assert len(rings) == sum(p.centre for p in mg.variant.provinces.values())


def test_the_marks_lie_inside_the_room_kept_for_a_unit():
    # so the placement that keeps a unit's and its dislodged unit's boxes clear keeps the marks clear too;
    # Cluster's site diamond lies beside them, and the placement keeps room for it as well, on standard's
    # board, where Cluster is drawn, too
    for variant_id in ("cluster", "coast_running"):
        mg = geometry(variant_id)
        assert {pieces.ORDER_BADGE, pieces.PROTECT_SHIELD} & set(labels.spot_marks(mg, "bre"))
        assert labels.spot_parts(mg, "spa/nc") == labels.UNIT_PARTS
    h = pieces.SITE_DIAMOND.half
    diamond = (pieces.SITE_DIAMOND.offset[0] - h, pieces.SITE_DIAMOND.offset[1] - h,
               pieces.SITE_DIAMOND.offset[0] + h, pieces.SITE_DIAMOND.offset[1] + h)
    assert labels.spot_parts(geometry("cluster"), "bre") == [*labels.UNIT_PARTS, diamond]
    assert labels.spot_parts(geometry("standard"), "bre") == [*labels.UNIT_PARTS, diamond]
    assert labels.spot_parts(geometry("coast_running"), "bre") == labels.UNIT_PARTS
    for home in (True, False):
        assert labels.ring_box((0, 0), home) == labels.dot_box((0, 0), home)


@pytest.mark.parametrize(("variant_id", "name", "mark"), [
    ("standard", "ILLEGAL_MARK", "illegal-order mark"),
    ("cluster", "STRENGTH_BADGE", "strength badge"),
    ("cluster", "SITE_DIAMOND", "site diamond"),
    ("cluster", "ORDER_BADGE", "order badge"),
    ("coast_running", "PROTECT_SHIELD", "protect shield"),
])
def test_check_catches_a_mark_that_reaches_a_name(monkeypatch, variant_id, name, mark):
    # a mark drawn far from its unit (here: onto the name of the province's own label) fails the check,
    # though the unit itself is clear
    mg = _copy(geometry(variant_id))
    assert labels.overlaps(mg) == []
    loc = "par"
    unit, label = mg.anchors[loc]["unit"], mg.anchors[loc]["label"]
    old = getattr(pieces, name)
    moved = dataclasses.replace(old, offset=(label[0] - unit[0], label[1] - unit[1]))
    monkeypatch.setattr(pieces, name, moved)
    problems = labels.overlaps(mg)
    assert f"name of Paris (par) overlaps {mark} at Paris (par)" in problems
    assert all(mark in p for p in problems)  # nothing else changed
    assert labels.spot_parts(mg, loc) != labels.UNIT_PARTS  # the placement would keep it clear


def test_a_site_diamond_is_clear_of_the_dislodged_unit():
    # Cluster's site diamond keeps clear of the dislodged unit drawn beside the unit, so in a retreat phase
    # both are seen (issue 20); the check catches a diamond placed under it
    mg = _copy(geometry("cluster"))
    assert labels.overlaps(mg) == []
    diamond = next(i for i in labels.unit_spots(mg) if i.loc == "par" and i.what.startswith("site diamond"))
    dislodged = next(i for i in labels.unit_spots(mg) if i.loc == "par" and i.kind == "dislodged")
    assert not labels.boxes_meet(diamond.box, dislodged.box)


def test_check_catches_a_site_diamond_under_the_dislodged_unit(monkeypatch):
    mg = _copy(geometry("cluster"))
    monkeypatch.setattr(pieces, "SITE_DIAMOND", dataclasses.replace(pieces.SITE_DIAMOND, offset=(22.0, 10.0)))
    problems = labels.overlaps(mg)
    assert "dislodged-unit spot of Paris (par) overlaps site diamond at Paris (par)" in problems


def test_the_standard_board_keeps_room_for_the_marks_of_the_variants_drawn_on_it():
    # Cluster's site diamond lies outside the room kept for a unit: the placement of standard's board
    # (where Cluster is drawn) keeps it clear, and the check of that board as Cluster's passes
    mg = geometry("standard")
    assert [v.id for v in mg.shared_with] == ["cluster", "coast_running"]
    assert labels.overlaps(dataclasses.replace(mg, variant=geometry("cluster").variant)) == []


@pytest.mark.parametrize("variant_id", ["standard", "cline6"])
def test_every_ring_the_page_draws_is_checked(variant_id):
    # an order ring round every unit spot, a ring round every dislodged unit's, a build-site ring round
    # every centre where a unit may be built, each as the three boxes that hold its disc
    mg = geometry(variant_id)
    found = {}
    for item in labels.rings(mg):
        found.setdefault((item.kind, item.loc), []).append(item.box)
    spots = [loc for loc in mg.anchors if labels.holds_units(mg, loc.split("/")[0])]
    assert {loc for kind, loc in found if kind == "order ring"} == set(spots)
    assert {loc for kind, loc in found if kind == "dislodged ring"} == set(spots)
    builds = {loc for kind, loc in found if kind == "build-site ring"}
    assert builds == {p for p in labels.build_places(mg) if "sc" in mg.anchors.get(p, {})}
    assert builds >= set(mg.variant.powers[next(iter(mg.variant.powers))].home_centres)
    x, y = mg.anchors[spots[0]]["unit"]
    r = pieces.ORDER_RING.radius
    boxes = found["order ring", spots[0]]
    for deg in range(0, 360, 5):  # every point of the ring's middle line lies in one of the boxes
        px, py = x + r * math.cos(math.radians(deg)), y + r * math.sin(math.radians(deg))
        assert any(b[0] - 1e-6 <= px <= b[2] + 1e-6 and b[1] - 1e-6 <= py <= b[3] + 1e-6 for b in boxes), deg


def test_check_catches_a_name_under_a_neighbours_ring():
    # a name just clear of Paris's unit, but where the ring round it for a hold order would cross it
    mg = _copy(geometry("standard"))
    x, y = mg.anchors["par"]["unit"]
    mg.anchors["bur"]["label"] = (x, y - labels.UNIT_HALF[1] - 1.5 - labels.baseline(labels.LABEL_SIZE) - 1.5)
    problems = labels.overlaps(mg)
    assert "name of Burgundy (bur) is under the order ring at Paris (par)" in problems
    assert "name of Burgundy (bur) overlaps unit spot of Paris (par)" not in problems
    # the ring round a build site and round a dislodged unit too
    mg = _copy(geometry("standard"))
    mg.anchors["bur"]["label"] = (mg.anchors["par"]["sc"][0] + 12, mg.anchors["par"]["sc"][1])
    dx, dy = labels.dislodged_point(mg.anchors["bel"]["unit"])
    mg.anchors["hol"]["label"] = (dx + 14, dy)
    problems = labels.overlaps(mg)
    assert "name of Burgundy (bur) is under the build-site ring at Paris (par)" in problems
    assert "name of Holland (hol) is under the dislodged ring at Belgium (bel)" in problems


def test_check_catches_a_name_on_a_changed_centre_ring():
    mg = _copy(geometry("standard"))
    x, y = mg.anchors["par"]["sc"]
    mg.anchors["bur"]["label"] = (x, y + 12)
    problems = labels.overlaps(mg)
    assert "name of Burgundy (bur) overlaps changed-centre ring of Paris (par)" in problems


# names written beside their province, with a leader line into it, exactly: on the Cline boards (5 km a
# unit) the provinces whose name, unit spot (with the dislodged unit's beside it), centre dot and the
# rings round them cannot all fit inside without meeting a neighbour's. The islands (Corsica, Crete, the
# Canary Islands) are smaller than a unit; Edinburgh is a strip between Clyde's and Yorkshire's units;
# Apulia, Rome and Tuscany (on Cline VI, which adds Milan, also Milan, Naples, Piedmont and Venice) are
# Italy's provinces about two units across, which their units, dots and rings fill; Picardy and
# Switzerland (Cline VI) lie between Paris's, Belgium's and Burgundy's, and Milan's and Tyrolia's.
NAMES_BESIDE = {
    "standard": set(), "loeb9": set(),
    "cline5": {"apu", "cai", "cor", "cre", "edi", "par", "rom", "tus"},
    "cline6": {"apu", "cai", "cor", "cre", "edi", "mil", "nap", "pic", "pie", "rom", "swi", "tus", "ven"},
}


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_few_names_are_written_beside_their_province(variant_id):
    assert geometry(variant_id).outside_labels == NAMES_BESIDE[variant_id]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_name_beside_its_province_has_a_leader_line_into_it(variant_id):
    mg = geometry(variant_id)
    assert set(mg.leaders) == mg.outside_labels
    for pid, (start, end) in mg.leaders.items():
        box = shapely.box(*labels.union_box(labels.name_boxes(mg, pid)))
        assert box.exterior.distance(shapely.Point(start)) < 0.1, pid  # from the name's box
        assert mg.shapes[pid].contains(shapely.Point(end)), pid  # into its province
        assert box.distance(shapely.Point(end)) >= 0.5, pid  # a line, visibly leaving the name


def test_check_catches_a_leader_line_across_a_name():
    mg = _copy(geometry("cline5"))
    mg.leaders = dict(mg.leaders)
    start, end = mg.leaders["cre"]
    mg.anchors["aeg"]["label"] = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    problems = labels.overlaps(mg)
    assert "leader line of Crete (cre) crosses name of Aegean Sea (aeg)" in problems


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_unit_spot_is_near_its_province_name(variant_id):
    # issue 20: Munich's unit was drawn 70 units from its name, in the roomiest corner of the province
    # (Cline V's Sahara 97); a unit spot now trades room against distance from the name
    mg = geometry(variant_id)
    far = {pid: shapely.Point(mg.anchors[pid]["label"]).distance(shapely.Point(mg.anchors[pid]["unit"]))
           for pid in mg.shapes if labels.holds_units(mg, pid) and pid not in mg.outside_labels}
    assert max(far.values()) <= 2.5 * 2 * labels.UNIT_HALF[0], max(far, key=far.get)
    if "mun" in far:
        assert far["mun"] <= 40


@pytest.mark.parametrize("variant_id", ["cluster", "coast_running"])
def test_the_marks_beside_one_unit_do_not_meet(variant_id):
    # a unit may carry several at once (a strength badge, a research order's "R", a kept illegal "!")
    marks = labels.spot_marks(geometry(variant_id), "par")
    boxes = {m.what: (m.offset[0] - m.half, m.offset[1] - m.half, m.offset[0] + m.half, m.offset[1] + m.half)
             for m in marks}
    for a, b in ((a, b) for a in boxes for b in boxes if a < b):
        assert not labels.boxes_meet(boxes[a], boxes[b]), (a, b)


def test_the_build_checks_a_shared_board_with_each_variant_marks(monkeypatch, tmp_path):
    # Cluster is drawn on the standard board's placement: the build checks there the marks Cluster's
    # page draws (here its order badge, moved onto Paris's name once the board is placed), not only
    # standard's, which has no order badge
    real = labels.place

    def place_then_move(mg):
        real(mg)
        unit, label = mg.anchors["par"]["unit"], mg.anchors["par"]["label"]
        moved = dataclasses.replace(pieces.ORDER_BADGE, offset=(label[0] - unit[0], label[1] - unit[1]))
        monkeypatch.setattr(pieces, "ORDER_BADGE", moved)

    monkeypatch.setattr(labels, "place", place_then_move)
    with pytest.raises(LabelCheckError) as caught:
        build_maps(tmp_path, ["standard", "cluster"])
    assert "map of 'cluster'" in str(caught.value)
    assert "name of Paris (par) overlaps order badge at Paris (par)" in str(caught.value)
