"""The built site starts: the map paints, Python becomes ready, and it fetches only its own files."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app_driver import Site


def test_page_starts_python_and_stays_on_its_origin(app: tuple[Any, Any], site: Site) -> None:
    page, recorder = app
    assert page.locator("#map svg").count() == 1
    assert page.locator("#boot").is_hidden()
    assert recorder.page_errors == []
    assert [text for text in recorder.console_errors if "Content Security Policy" in text] == []
    assert recorder.foreign_requests(site) == []


def test_the_site_ships_exactly_the_runtime_files_the_page_fetches(app: tuple[Any, Any], site: Site) -> None:
    page, recorder = app
    fetched = {urlsplit(url).path.lstrip("/") for url in recorder.requests}
    shipped = {path.relative_to(site.root).as_posix() for path in (site.root / "runtime").rglob("*") if path.is_file()}
    assert {path for path in fetched if path.startswith("runtime/")} == shipped


def test_no_request_is_refused(app: tuple[Any, Any]) -> None:
    page, recorder = app
    # A 404 or a blocked load shows as a console error ("Failed to load resource").
    assert [text for text in recorder.console_errors if "Failed to load" in text] == []


def test_opened_from_disk_the_page_explains_how_to_serve_it(new_context: Any, site: Site) -> None:
    context, _ = new_context()
    page = context.new_page()
    page.goto(Path(site.root / "index.html").as_uri())
    text = page.locator("#boot-text")
    text.wait_for(state="visible")
    assert "http.server" in text.inner_text()
    assert "127.0.0.1" in text.inner_text()


def test_the_larger_map_scrolls_inside_its_frame_and_back(app: tuple[Any, Any]) -> None:
    page, recorder = app
    frame = page.locator("#map")
    width = frame.evaluate("el => el.clientWidth")
    page.click("#map-zoom")
    assert "zoomed" in (frame.get_attribute("class") or "")
    assert page.locator("#map-zoom").get_attribute("aria-pressed") == "true"
    assert page.locator("#map svg").evaluate("el => el.getBoundingClientRect().width") > 1.5 * width
    assert frame.evaluate("el => el.scrollWidth > el.clientWidth")
    page.click("#map-zoom")
    assert page.locator("#map svg").evaluate("el => el.getBoundingClientRect().width") <= width + 1
    assert recorder.page_errors == []
