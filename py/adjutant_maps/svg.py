"""Drawing a :class:`~adjutant_maps.layout.MapGeometry` as an SVG with svgwrite.

The document is the contract with the web app (see ``maps/geo/README.md``): one ``<path>`` per
province whose ``id`` is the province id and whose ``data-*`` attributes hold its anchor points, one
``<g class="coast">`` per named coast (``id="stp/nc"``), the power colours on the root element.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import shapely
import svgwrite
from adjutant.pictures import drawing, pieces
from shapely.geometry.base import BaseGeometry

from . import data, palette
from . import labels as labels_
from .layout import MapGeometry

if TYPE_CHECKING:
    from adjutant.map.variant import Variant

PANEL = 250  # width of the legend panel right of the map, SVG units
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
STYLE = f"""
.land{{fill:#efe5c9;stroke:#6b5d45;stroke-width:.9;stroke-linejoin:round}}
.sea{{fill:#b3cfe6;stroke:#6f93b3;stroke-width:.8;stroke-linejoin:round}}
.impassable{{fill:url(#impassable);stroke:#6b5d45;stroke-width:.9}}
.decor-land{{fill:#ddd6c3;stroke:#8f8671;stroke-width:.6}}
.decor-water{{fill:#b3cfe6;stroke:#6f93b3;stroke-width:.6}}
.seasonal{{fill:url(#ice);pointer-events:none}}
.label{{font-family:{FONT};font-weight:bold;font-size:15px;text-anchor:middle;fill:#2b2418;pointer-events:none;
 paint-order:stroke;stroke:#fffaf0;stroke-width:3px;stroke-linejoin:round}}
.label.sea-label{{fill:#1d3f5e;stroke:#dcebf6}}
.label.small{{font-size:12px;stroke-width:2.5px}}
.leader{{fill:none;stroke:#2b2418;stroke-width:{labels_.LEADER_WIDTH};stroke-linecap:round;pointer-events:none}}
.sea-name{{font-family:{FONT};font-style:italic;font-size:10px;text-anchor:middle;fill:#1d3f5e;pointer-events:none;
 paint-order:stroke;stroke:#dcebf6;stroke-width:2.5px}}
.coast-line{{fill:none;stroke:#0b4f8a;stroke-width:2.6;stroke-dasharray:5 3;stroke-linecap:round}}
.coast-label{{font-family:{FONT};font-size:10px;font-weight:bold;text-anchor:middle;fill:#0b4f8a;
 paint-order:stroke;stroke:#fff;stroke-width:2.5px;pointer-events:none}}
.sc{{stroke:#2b2418;stroke-width:1.6}}
.sc:not(.sc-home){{fill:#fff}}
.sc-home{{stroke:#000;stroke-width:1.6}}
.link{{fill:none;stroke-linecap:round;pointer-events:none}}
.link.canal{{stroke:#1565c0;stroke-width:3}}
.link.passage{{stroke:#1565c0;stroke-width:2.2;stroke-dasharray:7 4}}
.link.weak{{stroke:#b3261e;stroke-width:2.2;stroke-dasharray:2 4}}
.link.box{{stroke:#37474f;stroke-width:2;stroke-dasharray:6 3}}
.legend-text{{font-family:{FONT};font-size:12px;fill:#2b2418}}
.legend-title{{font-family:{FONT};font-size:16px;font-weight:bold;fill:#2b2418}}
.province.offboard{{fill:#b3cfe6;stroke:#37474f;stroke-width:1.5;stroke-dasharray:6 3}}
.band{{fill:#e9eef2;stroke:#6f93b3;stroke-width:.8}}
.band-text{{font-family:{FONT};font-style:italic;font-size:11px;fill:#37474f;pointer-events:none}}
"""


def _num(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    if s == "-0":
        s = "0"
    return s


def _ring(coords: list[tuple[float, float]]) -> str:
    pts = [(round(x, 1), round(y, 1)) for x, y in coords[:-1]]
    if len(pts) < 3:
        return ""
    out = [f"M{_num(pts[0][0])} {_num(pts[0][1])}"]
    prev = pts[0]
    step = []
    for x, y in pts[1:]:
        dx, dy = round(x - prev[0], 1), round(y - prev[1], 1)
        prev = (round(prev[0] + dx, 1), round(prev[1] + dy, 1))
        step.append(f"{_num(dx)} {_num(dy)}")
    return out[0] + "l" + " ".join(step).replace(" -", "-") + "z"


def path_d(geom: BaseGeometry) -> str:
    parts = []
    for poly in shapely.get_parts(geom):
        if poly.geom_type != "Polygon":
            continue
        parts.append(_ring(list(poly.exterior.coords)))
        parts.extend(_ring(list(r.coords)) for r in poly.interiors)
    return "".join(parts)


def _pt(p: tuple[float, float]) -> str:
    return f"{_num(p[0])},{_num(p[1])}"


def _line_d(geom: BaseGeometry) -> str:
    out = []
    for line in shapely.get_parts(shapely.line_merge(geom) if geom.geom_type == "MultiLineString" else geom):
        if line.geom_type != "LineString" or line.length < 1:
            continue
        cs = list(line.coords)
        out.append(f"M{_num(cs[0][0])} {_num(cs[0][1])}L" + " ".join(f"{_num(x)} {_num(y)}" for x, y in cs[1:]))
    return "".join(out)


def _home_owner(mg: MapGeometry) -> dict[str, str]:
    return {c: p.id for p in mg.variant.powers.values() for c in p.home_centres}


def _edge_points(mg: MapGeometry, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    pa = mg.anchors[a]["unit"]
    pb = mg.anchors[b]["unit"]
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    d = math.hypot(dx, dy) or 1.0
    inset = min(13.0, d / 3)
    return (pa[0] + dx / d * inset, pa[1] + dy / d * inset), (pb[0] - dx / d * inset, pb[1] - dy / d * inset)


def render(mg: MapGeometry, shown: Variant | None = None) -> str:
    """The SVG document as text (deterministic: the same geometry gives the same bytes). ``shown`` names
    a variant played on this board (Coast-Running, Cluster on standard's): its id and name are written."""
    v = mg.variant
    shown = shown or v
    colours = palette.power_colours(list(v.powers))
    width, height = mg.width + PANEL, round(mg.svg_height)
    dwg = svgwrite.Drawing(size=(f"{width}", f"{height}"), profile="full", debug=False)
    dwg.viewbox(0, 0, width, height)
    dwg.attribs["id"] = f"map-{shown.id}"
    dwg.attribs["data-variant"] = shown.id
    dwg.attribs["data-map-width"] = str(mg.width)
    dwg.attribs["data-power-colours"] = json.dumps(colours, separators=(",", ":"))
    dwg.set_desc(title=f"{shown.name} map")
    # the map's own look, then the pieces' the page and every picture draw over it (one stylesheet)
    dwg.defs.add(dwg.style(STYLE + drawing.STYLE))

    hatch = dwg.pattern(id="impassable", size=(8, 8), patternUnits="userSpaceOnUse",
                        patternTransform="rotate(45)")
    hatch.add(dwg.rect((0, 0), (8, 8), fill="#d8cfb8"))
    hatch.add(dwg.line((0, 0), (0, 8), stroke="#8a7d62", stroke_width=2.5))
    dwg.defs.add(hatch)
    ice = dwg.pattern(id="ice", size=(14, 14), patternUnits="userSpaceOnUse", patternTransform="rotate(-30)")
    ice.add(dwg.line((0, 3), (14, 3), stroke="#ffffff", stroke_width=3, stroke_opacity=0.8))
    ice.add(dwg.line((0, 10), (14, 10), stroke="#ffffff", stroke_width=1, stroke_opacity=0.8))
    dwg.defs.add(ice)

    dwg.add(dwg.rect((0, 0), (mg.width, mg.height), fill="#b3cfe6"))
    if mg.strip:
        band = dwg.g(id="offboard")
        band.add(dwg.rect((0, _num(mg.height)), (mg.width, _num(mg.strip)), class_="band"))
        band.add(dwg.text("off the board", insert=(8, _num(mg.height + mg.strip - 8)), class_="band-text"))
        dwg.add(band)
    decor = dwg.g(id="decoration")
    if not mg.decor_water.is_empty:
        decor.add(dwg.path(d=path_d(mg.decor_water), class_="decor-water"))
    if not mg.decor_land.is_empty:
        decor.add(dwg.path(d=path_d(mg.decor_land), class_="decor-land"))
    dwg.add(decor)

    homes = _home_owner(mg)
    provinces = dwg.g(id="provinces")
    for p in sorted((p for p in v.provinces.values() if p.id in mg.shapes), key=lambda q: (q.type != "sea", q.id)):
        cls = {"sea": "sea", "impassable": "impassable"}.get(p.type, "land")
        if p.offboard:
            cls += " offboard"
        el = dwg.path(d=path_d(mg.shapes[p.id]), id=p.id, class_=f"province {cls}")
        el.attribs["data-name"] = p.name
        el.attribs["data-type"] = p.type
        for key, pt in mg.anchors[p.id].items():
            el.attribs[f"data-{key}"] = _pt(pt)
        if p.coasts:
            el.attribs["data-coasts"] = " ".join(p.coasts)
        if p.centre:
            el.attribs["data-centre"] = "true"
        if p.id in homes:
            el.attribs["data-home"] = homes[p.id]
        if p.seasons:
            el.attribs["data-seasons"] = " ".join(p.seasons)
        if p.offboard:
            el.attribs["data-offboard"] = "true"
        provinces.add(el)
    dwg.add(provinces)

    overlay = dwg.g(id="seasonal")
    for p in v.provinces.values():
        if p.seasons and p.id in mg.shapes:
            overlay.add(dwg.path(d=path_d(mg.shapes[p.id]), class_="seasonal"))
    dwg.add(overlay)

    coasts = dwg.g(id="coasts")
    for p in sorted(v.provinces.values(), key=lambda q: q.id):
        for c in p.coasts:
            loc = f"{p.id}/{c}"
            g = dwg.g(id=loc, class_="coast")
            g.attribs["data-province"] = p.id
            g.attribs["data-unit"] = _pt(mg.anchors[loc]["unit"])
            line = mg.coast_lines.get(loc)
            if line is not None and not line.is_empty:
                g.add(dwg.path(d=_line_d(line), class_="coast-line"))
            ux, uy = mg.anchors[loc]["unit"]
            base = uy + labels_.baseline(labels_.COAST_LABEL_SIZE)
            g.add(dwg.text(c.upper(), insert=(_num(ux), _num(base)), class_="coast-label"))
            coasts.add(g)
    dwg.add(coasts)

    links = dwg.g(id="links")
    for link in data.links(v):
        if link.kind not in data.SPECIAL_KINDS:
            continue
        a, b = link.pair
        if link.pair in mg.link_lines:
            ln = dwg.path(d=_line_d(mg.link_lines[link.pair]), class_=f"link {link.kind}")
        elif link.kind in ("canal", "box") or a not in mg.anchors or b not in mg.anchors:
            continue
        else:
            (x1, y1), (x2, y2) = _edge_points(mg, a, b)
            ln = dwg.line((_num(x1), _num(y1)), (_num(x2), _num(y2)), class_=f"link {link.kind}")
        ln.attribs["data-edge"] = f"{a} {b}"
        links.add(ln)
    dwg.add(links)

    markers = dwg.g(id="centres")
    for p in sorted(v.provinces.values(), key=lambda q: q.id):
        if not p.centre or p.id not in mg.anchors:
            continue
        x, y = mg.anchors[p.id]["sc"]
        owner = homes.get(p.id)
        if owner:
            # its power's colour as a presentation attribute (no rule of STYLE sets a home centre's fill):
            # a style attribute would need 'unsafe-inline' in the page's policy (docs/security.md)
            c = dwg.circle((_num(x), _num(y)), pieces.CENTRE_DOT_RADIUS[True], class_="sc sc-home",
                           fill=colours[owner])
            c.attribs["data-home"] = owner
        else:
            c = dwg.circle((_num(x), _num(y)), pieces.CENTRE_DOT_RADIUS[False], class_="sc")
        c.attribs["data-province"] = p.id
        markers.add(c)
    dwg.add(markers)

    labels = dwg.g(id="labels")
    for owner, (start, end) in sorted(mg.leaders.items()):
        line = dwg.line((_num(start[0]), _num(start[1])), (_num(end[0]), _num(end[1])), class_="leader")
        line.attribs["data-province"] = owner
        labels.add(line)
    for p in sorted(v.provinces.values(), key=lambda q: q.id):
        if p.id not in mg.anchors:
            continue
        x, y = mg.anchors[p.id]["label"]
        sea = p.type == "sea"
        small = p.id in mg.small_labels
        cls = ("label sea-label" if sea else "label") + (" small" if small else "")
        base = y + labels_.baseline(labels_.label_size(mg, p.id))
        labels.add(dwg.text(p.id.capitalize(), insert=(_num(x), _num(base)), class_=cls))
        if p.id in mg.sea_names:
            labels.add(dwg.text(p.name, insert=(_num(x), _num(base + labels_.SEA_NAME_GAP)), class_="sea-name"))
    dwg.add(labels)

    _legend(dwg, mg, colours, homes, shown.name)
    return str(dwg.tostring())


def _link_symbol(g: Any, dwg: svgwrite.Drawing, kind: str, x: float, y: float) -> None:
    g.add(dwg.line((x - 12, y), (x + 12, y), class_=f"link {kind}"))


def _legend(
    dwg: svgwrite.Drawing, mg: MapGeometry, colours: dict[str, str], homes: dict[str, str], title: str
) -> None:
    v = mg.variant
    x0 = mg.width
    g = dwg.g(id="legend")
    g.add(dwg.rect((x0, 0), (PANEL, round(mg.svg_height)), fill="#fbf7ec", stroke="#6b5d45", stroke_width=1))
    y = 30
    g.add(dwg.text(title, insert=(x0 + 14, y), class_="legend-title"))
    y += 28
    g.add(dwg.text("Powers", insert=(x0 + 14, y), class_="legend-text", font_weight="bold"))
    for pw in v.powers.values():
        y += 22
        sw = dwg.rect((x0 + 16, y - 12), (22, 15), fill=colours[pw.id], stroke="#2b2418", stroke_width=0.8)
        sw.attribs["data-power"] = pw.id
        g.add(sw)
        g.add(dwg.text(f"{pw.name} ({pw.abbrev})", insert=(x0 + 46, y), class_="legend-text"))
    y += 30

    def row(draw: Callable[[float, float], object], text: str) -> None:
        nonlocal y
        draw(x0 + 27, y - 4)
        g.add(dwg.text(text, insert=(x0 + 46, y), class_="legend-text"))
        y += 24

    row(lambda x, yy: g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="land")), "land")
    row(lambda x, yy: g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="sea")), "sea")
    if any(p.type == "impassable" for p in v.provinces.values()):
        row(lambda x, yy: g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="impassable")), "impassable")
    if not mg.decor_land.is_empty:
        row(lambda x, yy: g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="decor-land")), "not a space")
    row(lambda x, yy: g.add(dwg.circle((x, yy), 4.5, class_="sc")), "supply centre")
    row(lambda x, yy: g.add(dwg.circle((x, yy), 5.5, class_="sc sc-home", fill="#999")),
        "home centre (its power's colour)")
    if any(p.coasts for p in v.provinces.values()):
        def coast(x: float, yy: float) -> None:
            g.add(dwg.line((x - 12, yy), (x + 12, yy), class_="coast-line"))
        row(coast, "a named coast (NC, SC...)")
    kinds = {link.kind for link in data.links(v) if link.kind}
    texts = {
        "canal": "canal", "passage": "direct passage", "weak": "weak passage (armies)", "box": "link off the board",
    }
    for kind in data.SPECIAL_KINDS:
        if kind in kinds:
            row(functools.partial(_link_symbol, g, dwg, kind), texts[kind])
    for p in v.provinces.values():
        if p.seasons:
            def ice(x: float, yy: float) -> None:
                g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="sea"))
                g.add(dwg.rect((x - 11, yy - 8), (22, 16), class_="seasonal"))
            row(ice, f"{p.name}: open in {' and '.join(p.seasons)} only")
    dwg.add(g)
