"""The build-time maps: drawn borders match the rules graph, output is stable and small, and every
anchor point the web app uses lands inside its province when Chromium renders the SVG."""

from __future__ import annotations

import dataclasses
import struct
import xml.etree.ElementTree as ET
import zlib

import adjutant_maps
import pytest
import shapely
from adjutant.map.variant import load_variant, maps_dir
from adjutant.pictures import drawing
from adjutant_maps import DRAWN, SHARED, MapCheckError, build_maps, layout, palette, render_variant
from drawn_maps import drawn

VARIANTS = [v for v in DRAWN if (maps_dir() / f"{v}.json").exists()]
SVG_NS = "{http://www.w3.org/2000/svg}"
# Laying out a map takes seconds: each variant is drawn once per test run (tests/drawn_maps.py) and its SVG
# and geometry shared by the tests, which read them and never change them.


def rendered(variant_id: str) -> tuple[str, layout.MapGeometry]:
    return drawn(variant_id)


def test_standard_loeb9_and_the_cline_maps_are_drawn():
    assert {"standard", "loeb9", "cline5", "cline6"} <= set(VARIANTS)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_drawn_borders_match_the_adjacencies(variant_id):
    _, mg = rendered(variant_id)
    assert layout.check(mg) == []


def test_check_names_a_missing_and_an_extra_border():
    _, drawn = rendered("standard")
    v = drawn.variant
    kept = tuple(e for e in v.edges if {e.a, e.b} != {"lon", "wal"})
    extra = dataclasses.replace(v.edges[0], a="lon", b="par", who="army")
    problems = layout.check(dataclasses.replace(drawn, variant=dataclasses.replace(v, edges=(*kept, extra))))
    assert any("(lon)" in p and "(wal)" in p and "not adjacent" in p for p in problems)
    assert any("(lon)" in p and "(par)" in p and "do not share a border" in p for p in problems)


def test_only_declared_corners_may_touch_without_a_border():
    # Cline VI's Jerusalem meets the head of the Gulf of Aqaba (IND) at a point: allowed because
    # the geo file declares that corner, and reported as soon as the declaration is gone
    _, mg = rendered("cline6")
    assert 0 < mg.borders.get(("ind", "jer"), 0.0) < layout.MIN_BORDER
    assert layout.check(mg) == []
    undeclared = dataclasses.replace(mg, geo={**mg.geo, "corners": []})
    assert any("(ind)" in p and "(jer)" in p and "not adjacent" in p for p in layout.check(undeclared))


def test_render_refuses_a_map_that_does_not_match(monkeypatch):
    _, drawn = rendered("standard")
    monkeypatch.setattr(layout, "compute", lambda variant_id: dataclasses.replace(drawn))
    real = layout.check
    monkeypatch.setattr(layout, "check", lambda mg: [*real(mg), "Picardy (pic) and Wales (wal) disagree"])
    with pytest.raises(MapCheckError, match=r"\(pic\) and Wales \(wal\)"):
        render_variant("standard")


def test_output_is_deterministic():
    first, _ = rendered("standard")
    second, _ = render_variant("standard")  # drawn again from scratch
    assert first == second


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_svg_is_small_and_names_every_place(variant_id):
    text, mg = rendered(variant_id)
    assert len(text.encode("utf-8")) < 300_000
    root = ET.fromstring(text)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    v = mg.variant
    for p in v.provinces.values():
        assert p.id in ids, p.id
        for c in p.coasts:
            assert f"{p.id}/{c}" in ids, f"{p.id}/{c}"
    paths = {el.get("id"): el for el in root.iter(f"{SVG_NS}path") if el.get("id") in v.provinces}
    for pid, el in paths.items():
        assert el.get("data-unit") and el.get("data-label"), pid
        assert bool(el.get("data-sc")) == v.provinces[pid].centre, pid
    colours = root.get("data-power-colours")
    assert colours and all(f'"{pw}"' in colours for pw in v.powers)
    # no style attribute: the page's policy allows none (docs/security.md); colours are presentation attributes
    assert [el.get("id") or el.tag for el in root.iter() if "style" in el.attrib] == []
    # the pieces' stylesheet, which the page and every picture of the board draw with
    assert drawing.STYLE in "".join(style.text or "" for style in root.iter("{http://www.w3.org/2000/svg}style"))


def test_build_maps_writes_the_shared_boards(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(adjutant_maps, "render_variant", lambda vid, shown=None: rendered(vid))
    shared = [v for v in SHARED if (maps_dir() / f"{v}.json").exists()]
    paths = build_maps(tmp_path, ["standard", *shared])
    assert [p.name for p in paths] == [f"{v}.svg" for v in ("standard", *shared)]
    board = paths[0].read_text(encoding="utf-8")
    for vid, p in zip(shared, paths[1:], strict=True):
        name = load_variant(vid).name
        text = p.read_text(encoding="utf-8")
        # the same board under the variant's own id and name (title and legend)
        assert f'data-variant="{vid}"' in text and f">{name}<" in text and ">Standard Diplomacy<" not in text
        assert text.replace(vid, "standard").replace(name, "Standard Diplomacy") == board
    assert "SVG files" in capsys.readouterr().out


def test_build_maps_in_processes_writes_what_one_process_draws(tmp_path):
    """Two boards drawn at once, each in a process of its own (as build.py draws the site's): the same SVGs
    as the renderer in this process, a shared board's under its own name, in the same order."""
    shared = next(v for v in SHARED if SHARED[v] == "standard" and (maps_dir() / f"{v}.json").exists())
    paths = build_maps(tmp_path, [shared, "loeb9", "standard"], processes=2)
    assert [p.name for p in paths] == ["loeb9.svg", "standard.svg", f"{shared}.svg"]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    assert texts[:2] == [drawn("loeb9")[0], drawn("standard")[0]]
    name = load_variant(shared).name
    assert texts[2].replace(shared, "standard").replace(name, "Standard Diplomacy") == texts[1]


def test_power_palette_survives_colour_blindness():
    distances = palette.cvd_distances(list(palette.POWER_COLOURS))
    assert len(palette.POWER_COLOURS) >= 9
    for kind, d in distances.items():
        assert d > 12, (kind, d)


def test_palette_check_catches_a_confusable_pair():
    # red and green of equal lightness: distinct to most eyes, not to a deuteranope
    d = palette.cvd_distances(["#c0392b", "#4d8c2a", "#0072b2"])
    assert d["deuteranopia"] < 12 < d["normal"]


def _svg_points(d: str) -> list[tuple[float, float]]:
    """The vertices of a path written as absolute M/L commands (how links are written)."""
    nums = [float(n) for n in d.replace("M", " ").replace("L", " ").split()]
    return list(zip(nums[::2], nums[1::2], strict=True))


@pytest.mark.parametrize("variant_id", [v for v in VARIANTS if v.startswith("cline")])
def test_cline_antarctic_is_a_box_off_the_board_linked_to_wao_and_ind(variant_id):
    text, mg = rendered(variant_id)
    root = ET.fromstring(text)
    box = next(el for el in root.iter(f"{SVG_NS}path") if el.get("id") == "ant")
    assert box.get("data-offboard") == "true"
    x0, y0, x1, y1 = mg.shapes["ant"].bounds
    assert y0 > mg.height  # below the board, in the band
    links = {el.get("data-edge"): el for el in root.iter() if el.get("class") == "link box" and el.get("data-edge")}
    assert set(links) == {"ant ind", "ant wao"}
    for edge, el in links.items():
        pts = _svg_points(el.get("d"))
        sea = edge.split()[1]
        assert mg.shapes[sea].contains(shapely.Point(pts[-1])), edge  # the link ends in its sea
        assert x0 - 1 <= pts[0][0] <= x1 + 1 and y0 <= pts[0][1] <= y1, edge  # and starts at the box


@pytest.mark.parametrize("variant_id", [v for v in VARIANTS if v.startswith("cline")])
def test_cline_canals_are_drawn_along_the_canal_not_unit_to_unit(variant_id):
    text, mg = rendered(variant_id)
    root = ET.fromstring(text)
    canals = {
        el.get("data-edge"): _svg_points(el.get("d"))
        for el in root.iter()
        if el.get("class") == "link canal" and el.get("data-edge")
    }
    assert {"egy ind", "egy sms"} <= set(canals)
    km = mg.geo["projection"]["km_per_unit"]
    for edge in ("egy ind", "egy sms"):
        pts = canals[edge]
        # the Suez symbol: short, and it crosses Egypt from the Mediterranean to the Gulf of Suez
        assert shapely.LineString(pts).length * km < 320, edge
        assert mg.shapes["sms"].contains(shapely.Point(pts[0])) and mg.shapes["ind"].contains(shapely.Point(pts[-1]))
    for edge, pts in canals.items():
        a, b = edge.split()
        line = shapely.LineString(pts)
        assert line.length * km < 1040, edge  # the whole Volga canal is drawn about 880 km long
        assert line.distance(mg.shapes[a]) < 4 and line.distance(mg.shapes[b]) < 4, edge


def _decode_png(data: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, bytes per pixel and raw pixels of an 8-bit RGB/RGBA PNG."""
    pos, chunks = 8, b""
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    raw, stride = zlib.decompress(chunks), width * bpp
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for r in range(height):
        f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[r * stride : (r + 1) * stride] = line
        prev = line
    return width, height, bpp, bytes(out)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_anchor_points_fall_inside_their_province_in_chromium(variant_id, browser, tmp_path):
    text, mg = rendered(variant_id)
    ids = sorted(mg.shapes)
    # paint each province a colour of its own, hide everything else, render 1 unit = 1 pixel
    colour = {pid: (20 + 20 * (i % 12), 20 + 20 * (i // 12), 240) for i, pid in enumerate(ids)}
    css = "#decoration,#seasonal,#coasts,#links,#centres,#labels,#legend{display:none}"
    css += "".join(f'[id="{pid}"]{{fill:rgb{c}!important;stroke:none!important}}' for pid, c in colour.items())
    width, height = mg.width, round(mg.svg_height)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_content(f"<html><body style='margin:0'><style>{css}</style>{text}</body></html>")
    page.evaluate(
        f"() => {{ const s = document.querySelector('svg'); s.setAttribute('width', "
        f"'{width + 250}'); s.setAttribute('height', '{height}'); }}"
    )
    png = page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height})
    page.close()
    (tmp_path / f"{variant_id}-provinces.png").write_bytes(png)
    w, _, bpp, px = _decode_png(png)
    wrong = []
    for loc, points in sorted(mg.anchors.items()):
        pid = loc.split("/")[0]
        for key, (x, y) in sorted(points.items()):
            if key == "label" and pid in mg.outside_labels:
                continue  # a province too small for its name has it beside it (test_map_labels.py)
            i = (int(y) * w + int(x)) * bpp
            got = tuple(px[i : i + 3])
            if max(abs(g - e) for g, e in zip(got, colour[pid], strict=True)) > 3:
                wrong.append(f"{loc} {key} at {x},{y} shows {got}, not {pid}")
    assert wrong == []


def test_order_lines_keep_their_contrast_over_land_and_sea():
    """The page draws every order line over a dark casing (adjutant.pictures.drawing.STYLE .adj-casing,
    palette.ARROW_CASING): it reaches WCAG's 3:1 for graphics against the map's land and sea, which the lighter power
    colours alone do not."""
    import re

    from adjutant_maps import svg

    land = re.search(r"\.land\{fill:(#[0-9a-fA-F]{6})", svg.STYLE)
    sea = re.search(r"\.sea\{fill:(#[0-9a-fA-F]{6})", svg.STYLE)
    assert land and sea
    casing = re.search(r"\.adj-casing \{ stroke: (#[0-9a-fA-F]{6})", drawing.STYLE)
    assert casing and casing.group(1).lower() == palette.ARROW_CASING
    for ground in (land.group(1), sea.group(1)):
        assert palette.contrast_ratio(palette.ARROW_CASING, ground) >= 3
    faint = [c for c in palette.POWER_COLOURS
             if min(palette.contrast_ratio(c, land.group(1)), palette.contrast_ratio(c, sea.group(1))) < 3]
    assert "#88CCEE" in faint  # (why the casing is drawn)
