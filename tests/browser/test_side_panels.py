"""The side panels are filled again only when what they show changed (py/adjutant_ui/app.py, App._stale): an
order entered leaves the position as text and the last phase's results as they are (the same elements, so
the browser lays out only what changed, and a result being read keeps its place), and after orders, an
adjudication and an undo every panel shows what a fresh tab opening the same link shows."""

from __future__ import annotations

from typing import Any

from app_driver import Site, adjudicate, enter_text, open_app

PANELS = ("#results-summary", "#position-list", "#powers tbody", "#order-list", "#results")

#: each panel's text, item by item
SHOWN = """(panels) => panels.map(selector => {
  const panel = document.querySelector(selector);
  return [...panel.children].map(item => item.textContent).concat(panel.children.length ? [] : [panel.textContent]);
})"""

#: marks every item of the panels given, to tell later whether each is still the same element
MARK = """(panels) => { for (const selector of panels)
  for (const item of document.querySelector(selector).children) item.adjutantKept = true; }"""

KEPT = """(panels) => panels.map(selector => {
  const items = [...document.querySelector(selector).children];
  return items.length > 0 && items.every(item => item.adjutantKept === true);
})"""


def shown_afresh(context: Any, site: Site, page: Any) -> Any:
    fresh = open_app(context, site.url + str(page.evaluate("location.hash")))
    try:
        return fresh.evaluate(SHOWN, PANELS)
    finally:
        fresh.close()


def test_an_order_entered_fills_again_only_the_panels_it_changes(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    enter_text(page, "A par - bur\nA mar S A par - bur\nF bre - mao", "france")
    enter_text(page, "A mun - bur\nA ber - kie", "germany")
    adjudicate(page)
    assert page.locator("#results-summary li").count() > 3
    unchanged = ["#results-summary", "#position-list"]
    page.evaluate(MARK, unchanged + ["#order-list"])

    enter_text(page, "A bur - pic", "france")
    assert page.evaluate(KEPT, unchanged) == [True, True]
    assert page.locator("#order-list li").all_text_contents() == ["FRA: A Bur - Pic"]
    assert page.evaluate(SHOWN, PANELS) == shown_afresh(context, site, page)

    adjudicate(page)
    assert page.evaluate(KEPT, unchanged) == [False, False]  # another phase's results and position
    page.click("#undo")
    enter_text(page, "A bur - gas", "france")
    assert page.evaluate(SHOWN, PANELS) == shown_afresh(context, site, page)
    assert recorder.page_errors == []
