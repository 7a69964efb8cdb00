"""Pictures of the board (adjutant.pictures.scene, adjutant.pictures.drawing, ``adjutant map``): the command line's
picture shows what the page's board draws for the same phase, opens alone, never turns a name into markup, and a
Cluster game's public picture holds none of its secrets."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from adjutant import AdjutantError, cli
from adjutant.formats.gamefile import dumps
from adjutant.game import Game
from adjutant.group_play import cluster_views
from adjutant.map.variant import available_variants, load_variant
from adjutant.pictures.drawing import Drawing, MapPoints, board_svg, to_svg
from adjutant.pictures.scene import Scene
from adjutant.randomgame import random_game
from adjutant_ui.session import Session

SVG = "{http://www.w3.org/2000/svg}"
VARIANTS = [vid for vid, _ in available_variants()]


def stub_map(variant_id: str) -> str:
    """A stand-in for the variant's built map (the renderer takes minutes): every province and coast on a
    grid, its point in ``data-unit``, a centre's dot in ``data-sc``, the powers' colours on the root."""
    v = load_variant(variant_id)
    places = [(p.id, p.centre) for p in sorted(v.provinces.values(), key=lambda p: p.id)]
    places += [(f"{p.id}/{c}", False) for p in v.provinces.values() for c in p.coasts]
    elements = []
    for i, (place, centre) in enumerate(places):
        x, y = 40 + (i % 20) * 60, 40 + (i // 20) * 60
        sc = f' data-sc="{x + 14},{y + 14}"' if centre else ""
        elements.append(f'<path id="{place}" data-unit="{x},{y}"{sc} d="M{x - 25} {y - 25}h50v50h-50z"/>')
    colours = json.dumps({p: f"#{(i * 40) % 256:02x}{(i * 90) % 256:02x}aa" for i, p in enumerate(v.powers)})
    height = 80 + (len(places) // 20 + 1) * 60
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0,0,1300,{height}" width="1300" height="{height}" '
            f"data-power-colours='{colours}'><style>.land{{fill:#eee}}</style>{''.join(elements)}</svg>")


def played(variant_id: str, seed: int = 3, years: int = 2) -> Game:
    game = Game.new(variant_id, seed=seed)
    for game in random_game(variant_id, seed=seed, years=years):  # noqa: B007 - the last one is kept
        pass
    return game


def marks(svg_text: str, strengths: bool = True) -> Counter[tuple[str, ...]]:
    """What the picture draws over the map: each element of the overlay by its tag, class and keys (the
    centres' dots, which the page colours on the map itself, left out; Cluster's strengths if not
    ``strengths``)."""
    root = ET.fromstring(svg_text)
    overlay = next(e for e in root.iter() if e.get("id") == "adj-overlay")
    strength = {e for mark in overlay.iter() if mark.get("class") == "adj-strength" for e in mark.iter()}
    return Counter((e.tag.removeprefix(SVG), e.get("class") or "", e.get("data-location") or "",
                    e.get("data-result") or "", e.get("data-province") or "",
                    (e.get("data-strength") or "") if strengths else "")
                   for e in overlay.iter() if e.get("class") not in ("adj-centres", "sc", "sc sc-home")
                   and (strengths or e not in strength))


def page_scene(session: Session) -> Scene:
    """What the page's board draws for ``session``'s shown phase, results shown (adjutant_ui.app
    _draw_board: the same calls, in the same order)."""
    return Scene(session.shown_position(), session.shapes(), session.last_results(), session.changed_centres(),
                 session.retreat_choices(), session.phase_marks(None))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_the_command_lines_picture_shows_what_the_page_draws(variant_id: str) -> None:
    game = played(variant_id)
    map_svg = stub_map(variant_id)
    # (a game with secrets as its players see it: the page's board shows a strength only at the current
    # phase, a picture of a past phase the strengths known then, so strengths are left out of the comparison)
    public = cluster_views.for_players(game)
    drawing = Drawing(game.variant, MapPoints.from_svg(map_svg))
    session = Session(public)
    checked = 0
    # every phase: the game's start, the past ones (with the results that made them) and the current one
    for view in range(len(game.history) + 1):
        session.step(to=view)
        if session.view != view:  # (a silent phase the page steps over)
            continue
        phase = str(game.position_at(view).phase)
        picture = cli.board_picture(game, map_svg, phase if view < len(game.history) else None)
        page = board_svg(map_svg, drawing, page_scene(session), "t")
        assert marks(picture, strengths=False) == marks(page, strengths=False), phase
        drawn = marks(picture)
        if view and not game.history[view - 1].skipped:
            assert any(cls.startswith("adj-order") and "result" in cls for _, cls, *_ in drawn), phase
        assert sum(1 for _, cls, *_ in drawn if cls.startswith("adj-unit ") or cls == "adj-unit") == \
            len(game.position_at(view).units) + len(game.position_at(view).dislodged)
        checked += 1
    assert checked > 4


def test_a_picture_opens_alone_and_names_stay_text(tmp_path: Path) -> None:
    game = played("standard", years=1)
    (tmp_path / "game.json").write_text(dumps(game))
    (tmp_path / "map.svg").write_text(stub_map("standard"))
    hostile = '<script>alert(1)</script><img src="http://example.com/x.png">'
    code = cli.main(["map", str(tmp_path / "game.json"), "--map", str(tmp_path / "map.svg"), "--phase", "F1901M",
                     "--title", hostile, "-o", str(tmp_path / "board.svg")])
    assert code == 0
    text = (tmp_path / "board.svg").read_text()
    root = ET.fromstring(text)  # well-formed XML
    assert [e for e in root.iter() if e.tag.removeprefix(SVG) in ("script", "image", "foreignObject")] == []
    assert "<script" not in text and "&lt;script&gt;" in text
    # nothing outside the file: no link to another file, no url() but to the file's own patterns
    assert [name for e in root.iter() for name in e.attrib if re.search("href|src", name)] == []
    assert all(ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", text))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text and title.text.startswith("Standard Diplomacy \u2014 Fall 1901 movement")
    # the results written below the map, and a key to the pieces
    assert any("Movement results for Spring of 1901" in (e.text or "") for e in root.iter(f"{SVG}text"))
    assert any(e.get("class") == "adj-key" for e in root.iter())


def test_orders_only_and_results_only() -> None:
    game = played("standard", years=1)
    map_svg = stub_map("standard")
    spring = cli.board_picture(game, map_svg, "S1901M", results=False)
    kinds = {cls for _, cls, *_ in marks(spring)}
    # the orders as given in spring, not their results
    assert any(cls.startswith("adj-order move") for cls in kinds)
    assert not any("result" in cls or "failed" in cls or "succeeded" in cls for cls in kinds)
    fall = cli.board_picture(game, map_svg, "F1901M", orders=False)
    assert any("result" in cls for _, cls, *_ in marks(fall))


def test_the_command_line_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played("standard", years=1)
    (tmp_path / "game.json").write_text(dumps(game))
    (tmp_path / "map.svg").write_text(stub_map("standard"))
    (tmp_path / "bad.svg").write_text("<svg><g></svg>")
    args = ["map", str(tmp_path / "game.json"), "-o", str(tmp_path / "out.svg")]
    assert cli.main([*args, "--map", str(tmp_path / "map.svg"), "--phase", "F1950M"]) == 1
    assert "this game has no phase 'F1950M'; its phases are S1901M" in capsys.readouterr().err
    assert cli.main([*args, "--map", str(tmp_path / "bad.svg")]) == 1
    assert "the map is not SVG that can be read" in capsys.readouterr().err
    assert cli.main([*args, "--map", str(tmp_path / "none.svg")]) == 1
    assert "cannot read the map" in capsys.readouterr().err
    assert not (tmp_path / "out.svg").exists()


def test_a_map_file_cannot_smuggle_a_colour_into_an_attribute() -> None:
    """A colour the map names that is not a colour is not written (the power's fallback is)."""
    variant = load_variant("standard")
    points = MapPoints({"par": (1.0, 2.0)}, {}, {"france": 'red" onload="x'})
    game = Game.new("standard")
    from adjutant.pictures.scene import scene

    text = to_svg(Drawing(variant, points).overlay(scene(game)))
    assert "onload" not in text


def test_no_public_picture_of_a_cluster_game_holds_a_secret() -> None:
    game = played("cluster", seed=5, years=3)
    map_svg = stub_map("cluster")
    public = cluster_views.for_players(game)
    sites = cluster_views.picture_marks(game)[0]
    assert sites  # (what a leak would show)
    secret_reasons = {r.reason for record in game.history for r in record.results} - {
        r.reason for record in public.history for r in record.results}
    for view in range(len(game.history) + 1):
        phase = str(game.position_at(view).phase)
        shown = cli.board_picture(game, map_svg, phase)
        root = ET.fromstring(shown)
        assert not [e for e in root.iter() if "adj-site" in (e.get("class") or "")], phase
        assert "Site of the Ancients, level" not in shown and "game master" not in shown
        known = cluster_views.picture_marks(public, view)[1]
        strengths = {e.get("data-location", "").split("/")[0]: e.get("data-strength")
                     for e in root.iter() if e.get("data-strength")}
        assert all(known.get(place) == mark for place, mark in strengths.items()), phase
        for reason in secret_reasons:
            assert reason not in shown, (phase, reason)
        # the game master's picture shows the sites, and says it is the game master's
        secrets = cli.board_picture(game, map_svg, phase, secrets=True)
        assert "game master's view, with secrets" in secrets
        assert len({e.get("data-province") for e in ET.fromstring(secrets).iter()
                    if "adj-site " in (e.get("class") or "")}) == len(sites)
    all_known = cluster_views.picture_marks(game)[1]
    assert all_known and set(all_known) != set(cluster_views.picture_marks(public)[1])


def test_a_short_or_foreign_map_is_refused() -> None:
    game = Game.new("standard")
    with pytest.raises(AdjutantError, match="not one of Adjutant's map SVGs"):
        board_svg('<svg xmlns="http://www.w3.org/2000/svg"></svg>', Drawing(game.variant, MapPoints({})),
                  Scene(game.position), "t")
