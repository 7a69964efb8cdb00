"""Keyboard and screen readers: axe-core (pinned in package.json, injected from node_modules: no request
leaves the site) finds no serious or critical violation; units are selected and ordered from the keyboard;
the position is available as text; the file opener shows its focus."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from app_driver import Site
from test_play import phase

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any, site: Site) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now. The script is served from the
    site's own folder (the page's Content Security Policy allows no inline script, rightly)."""
    served = site.root / "test-axe.min.js"
    if not served.exists():
        shutil.copyfile(AXE, served)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=site.url.rstrip("/") + "/test-axe.min.js")
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.help + ' ' + JSON.stringify(v.nodes.slice(0, 3).map(n => n.target)));
    }""")
    return [str(line) for line in found]


def test_axe_finds_no_serious_violation(app: tuple[Any, Any], site: Site) -> None:
    page, recorder = app
    assert serious_violations(page, site) == []
    # with a unit selected (its choices shown)
    page.locator('#map .adj-unit[data-location="par"]').click()
    assert serious_violations(page, site) == []
    assert json.dumps(recorder.page_errors) == "[]"


def test_a_unit_is_ordered_from_the_keyboard(app: tuple[Any, Any]) -> None:
    page, recorder = app
    paris = page.locator('#map .adj-unit[data-location="par"]')
    # the units are one Tab stop (the arrow keys go from one to the next: tests/browser/test_order_entry.py)
    assert page.locator('#map .adj-unit.orderable[tabindex="0"]').count() == 1
    assert paris.get_attribute("tabindex") == "-1" and "Paris" in (paris.get_attribute("aria-label") or "")
    paris.focus()
    page.keyboard.press("Enter")
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    # the focus goes to the unit's first highlighted place
    assert page.evaluate("document.activeElement.classList.contains('adj-target')")
    burgundy = page.locator('#map .adj-target[id="bur"]')
    assert burgundy.get_attribute("aria-label") == "Burgundy"
    burgundy.focus()
    page.keyboard.press("Enter")
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    assert phase(page) == "S1901M"
    assert recorder.page_errors == []


def test_the_position_as_text_and_the_file_openers_focus(app: tuple[Any, Any]) -> None:
    page, recorder = app
    page.click("#position-text summary")
    france = page.inner_text('#position-list li[data-power="france"]')
    assert "A Paris" in france and "F Brest" in france and "3 centres" in france
    page.focus("#download")
    page.keyboard.press("Tab")  # to the file input behind "Open file"
    assert page.evaluate("document.activeElement.id") == "upload"
    outline = page.evaluate("getComputedStyle(document.getElementById('upload-label')).outlineStyle")
    assert outline == "solid"
    assert page.get_attribute("#orders-text", "id") == page.evaluate(
        "document.querySelector('label[for=orders-text]').htmlFor")
