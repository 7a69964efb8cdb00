"""Hostile or damaged input in the browser: a poisoned autosave and snapshot, a hostile link, a hostile
dropped file. None may stop the page, replace the game in hand, lose the autosave or become markup."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from app_driver import Site, adjudicate, open_app, reopen_app

# A number past Python's int-string limit: json.loads raises ValueError, not a JSON error.
HUGE_NUMBER = "1" + "0" * 5000
HOSTILE_LINK = (
    base64.urlsafe_b64encode(zlib.compress(('{"a":' + HUGE_NUMBER + ',"v":"standard","n":0}').encode(), 9)[2:-4])
    .decode()
    .rstrip("=")
)
HOSTILE_FILE = '{"format": "adjutant-game", "version": ' + HUGE_NUMBER + "}"
MARKUP = '<img src=x onerror="window.__pwned=1">'


def phase(page: Any) -> str:
    return str(page.evaluate("document.documentElement.dataset.phase"))


def stored(page: Any, key: str) -> Any:
    return page.evaluate("key => localStorage.getItem(key)", key)


def test_a_poisoned_autosave_or_link_never_stops_the_page(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    page.fill("#orders-text", "France: A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    assert phase(page) == "F1901M"
    played = stored(page, "adjutant.autosave")

    # An autosave the reader chokes on, and a snapshot full of markup and Object's own names.
    snapshot = {
        "version": 1,
        "variant": "standard",
        "title": MARKUP,
        "units": [[MARKUP, "A", "par"], ["x", "F", "__proto__"], ["x", "A", "constructor"]],
        "centres": {"par": MARKUP, "lon": "constructor"},
        "colours": {MARKUP: "red;background:url(/x)", "constructor": "#fff"},
    }
    page.evaluate(
        "([save, snap]) => { localStorage.setItem('adjutant.autosave', save); "
        "localStorage.setItem('adjutant.snapshot', snap); }",
        [HOSTILE_LINK, json.dumps(snapshot)],
    )
    page = reopen_app(page, site.url)
    assert "autosaved game could not be read" in page.inner_text("#message-text")
    assert phase(page) == "S1901M"
    # The unreadable save is kept, not lost under the new game's autosave.
    assert stored(page, "adjutant.autosave.unreadable") == HOSTILE_LINK

    # A hostile link: a message, and the autosaved game is shown (and put in the address bar).
    page.evaluate("save => localStorage.setItem('adjutant.autosave', save)", played)
    page = reopen_app(page, site.url + "#" + HOSTILE_LINK)
    assert "link could not be opened" in page.inner_text("#message-text")
    assert phase(page) == "F1901M"
    assert page.evaluate("location.hash") == "#" + played
    assert stored(page, "adjutant.autosave") == played

    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("window.__pwned") is None
    assert recorder.page_errors == []
    assert recorder.console_errors == []  # no NaN coordinates from the snapshot's "__proto__" unit

    # A link whose readable start names a variant there is no map of (the page's first paint asks for that
    # map and gets a 404): refused with the reason, and the autosaved game shown on its own map.
    page = reopen_app(page, site.url + "#nosuch." + played.split(".", 1)[1])
    assert "says it holds a game of 'nosuch'" in page.inner_text("#message-text")
    assert phase(page) == "F1901M" and page.get_attribute("#map", "data-variant") == "standard"
    assert stored(page, "adjutant.autosave") == played
    assert recorder.page_errors == []


def test_a_hostile_dropped_file_keeps_the_game_and_the_embed_code_keeps_the_folder(
    new_context: Any, site: Site
) -> None:
    context, recorder = new_context()
    # A query holding "/" (as a referrer's tracking parameter may) must not move embed.html elsewhere.
    page = open_app(context, site.url + "index.html?ref=a/b")
    page.fill("#orders-text", "France: A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    saved = stored(page, "adjutant.autosave")

    # Dropped on the root element (below a short page, outside <body>): opened by the app, refused.
    page.evaluate(
        """([text, name]) => {
          const data = new DataTransfer();
          data.items.add(new File([text], name, {type: "application/json"}));
          const drop = new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true});
          document.documentElement.dispatchEvent(drop);
        }""",
        [HOSTILE_FILE, MARKUP + ".json"],
    )
    page.wait_for_selector("#message:not([hidden])", timeout=10_000)
    text = page.inner_text("#message-text")
    assert "could not be opened" in text and "not valid JSON" in text and MARKUP in text
    assert page.locator("#message img").count() == 0
    assert phase(page) == "F1901M"
    assert stored(page, "adjutant.autosave") == saved

    page.click("#copy-embed")
    src = page.input_value("#embed-code").split('src="')[1].split('"')[0]
    assert src == site.url + "embed.html#" + saved
    assert recorder.page_errors == []
