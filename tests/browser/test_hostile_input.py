"""Hostile or damaged input in the browser: a poisoned autosave and snapshot, a hostile link, a hostile
dropped file. None may stop the page, replace the game in hand, lose the autosave or become markup."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest
from app_driver import (
    Site,
    adjudicate,
    autosaved,
    new_cluster_game,
    open_app,
    open_new_cluster_dialog,
    phase,
    reopen_app,
)

# A number past Python's int-string limit: json.loads raises ValueError, not a JSON error.
HUGE_NUMBER = "1" + "0" * 5000
HOSTILE_LINK = (
    base64.urlsafe_b64encode(zlib.compress(('{"a":' + HUGE_NUMBER + ',"v":"standard","n":0}').encode(), 9)[2:-4])
    .decode()
    .rstrip("=")
)
HOSTILE_FILE = '{"format": "adjutant-game", "version": ' + HUGE_NUMBER + "}"
MARKUP = '<img src=x onerror="window.__pwned=1">'


def stored(page: Any, key: str) -> Any:
    return page.evaluate("key => localStorage.getItem(key)", key)


def test_a_poisoned_autosave_or_link_never_stops_the_page(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    page.fill("#orders-text", "France: A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    assert phase(page) == "F1901M"
    played = autosaved(page)

    # An autosave the reader chokes on, and a snapshot full of markup and Object's own names.
    snapshot = {
        "version": 2,
        "variant": "standard",
        "title": MARKUP,
        "units": ["g", [["class", "adj-units"]], None, [
            ["circle", [["r", "9"], ["onclick", "window.__pwned = 1"], ["fill", "red;background:url(/x)"]], None, []],
            ["text", [["x", "NaN"]], MARKUP, []], ["script", [], "window.__pwned = 1", []]]],
        "centres": {"par": MARKUP, "lon": "constructor"},
        "colours": {MARKUP: "red;background:url(/x)", "constructor": "#fff"},
    }
    page.evaluate(
        "([save, snap]) => { localStorage.setItem('adjutant.autosave', save); "
        "localStorage.setItem('adjutant.snapshot', snap); }",
        [HOSTILE_LINK, json.dumps(snapshot)],
    )
    # (a fresh tab opens the autosave; a reloaded tab reopens its own game, saved under its own key)
    page.close()
    page = open_app(context, site.url)
    assert "autosaved game could not be read" in page.inner_text("#message-text")
    assert phase(page) == "S1901M"
    # The unreadable save is kept, not lost under the new game's autosave.
    assert stored(page, "adjutant.autosave.unreadable") == HOSTILE_LINK

    # A hostile link: a message, and the autosaved game is shown (and put in the address bar).
    page.evaluate("save => localStorage.setItem('adjutant.autosave', save)", played)
    page.close()
    page = open_app(context, site.url + "#" + HOSTILE_LINK)
    said = page.inner_text("#message-text")
    assert "link could not be opened" in said and "Showing your last game instead" in said, said
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
    assert "variant Adjutant does not have: unknown variant 'nosuch'" in page.inner_text("#message-text")
    assert phase(page) == "F1901M" and page.get_attribute("#map", "data-variant") == "standard"
    assert stored(page, "adjutant.autosave") == played
    assert recorder.page_errors == []


def test_a_bad_link_in_a_fresh_browser_says_a_new_game_is_shown(new_context: Any, site: Site) -> None:
    """With no game saved in this browser, what is shown instead of a bad link is a new game, and the
    message says so (not "your last game")."""
    context, recorder = new_context()
    page = open_app(context, site.url + "#" + HOSTILE_LINK)
    said = page.inner_text("#message-text")
    assert "link could not be opened" in said and "Showing a new game instead" in said, said
    assert phase(page) == "S1901M"
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
    saved = autosaved(page)

    # Dropped on the root element (below a short page, outside <body>): opened by the app, refused.
    drop_file(page, HOSTILE_FILE, MARKUP + ".json")
    text = page.inner_text("#message-text")
    assert "could not be opened" in text and "not valid JSON" in text and MARKUP in text
    assert page.locator("#message img").count() == 0
    assert phase(page) == "F1901M"
    assert stored(page, "adjutant.autosave") == saved

    page.click("#copy-embed")
    src = page.input_value("#embed-code").split('src="')[1].split('"')[0]
    assert src == site.url + "embed.html#" + saved
    assert recorder.page_errors == []


def deflated_link(text: str) -> str:
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)[2:-4]).decode().rstrip("=")


def _one_move_played(app: tuple[Any, Any]) -> tuple[Any, Any, str]:
    """The app's page, its game in hand with one phase played (France's A Par - Bur), its recorder and its
    autosave."""
    page, recorder = app
    page.fill("#orders-text", "France: A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    return page, recorder, autosaved(page)


# 6,000 nested arrays: json.loads overflows Pyodide's JavaScript stack (a fatal error, not an exception)
DEEP = "[" * 6000 + "]" * 6000


def test_deep_nesting_in_a_link_a_sealed_link_or_the_autosave_never_stops_the_page(
    shared_app: tuple[Any, Any], site: Site
) -> None:
    page, recorder, played = _one_move_played(shared_app)
    for fragment in (deflated_link(DEEP), "standard." + deflated_link(DEEP), "cluster.s=" + deflated_link(DEEP)):
        page = reopen_app(page, site.url + "#" + fragment)
        text = page.inner_text("#message-text")
        assert "link could not be opened" in text and "nested more than 16 levels" in text, fragment[:20]
        assert phase(page) == "F1901M"
    page.evaluate("save => localStorage.setItem('adjutant.autosave', save)", deflated_link(DEEP))
    page.close()
    page = open_app(page.context, site.url)  # a fresh tab opens the autosave
    assert "autosaved game could not be read" in page.inner_text("#message-text")
    assert "nested more than 16 levels" in page.inner_text("#message-text")
    assert played is not None
    assert recorder.page_errors == []


def drop_file(page: Any, text: str, name: str, wait: str = "#message:not([hidden])") -> None:
    """Drop a file of ``text`` on the root element (below a short page, outside <body>); wait for ``wait``."""
    page.evaluate("document.getElementById('message').hidden = true")
    page.evaluate(
        """([text, name]) => {
          const data = new DataTransfer();
          data.items.add(new File([text], name, {type: "application/json"}));
          const drop = new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true});
          document.documentElement.dispatchEvent(drop);
        }""",
        [text, name],
    )
    page.wait_for_selector(wait, state="attached", timeout=30_000)


def test_open_file_reads_what_the_engine_reads_and_states_the_one_limit(shared_app: tuple[Any, Any]) -> None:
    from adjutant import Game, dumps
    from adjutant.formats.limits import MAX_FILE_BYTES

    page, recorder = shared_app
    game = Game.new("standard")
    game.add_orders("France: A par - bur")
    game.adjudicate()
    text = dumps(game)
    # a legal game of about a thousand phases writes over 5 MB: padding gives one of that size cheaply
    big = text[:-2] + " " * (5_300_000 - len(text)) + text[-2:]
    drop_file(page, big, "long-game.json", wait="html[data-phase='F1901M']")
    too_big = text[:-2] + " " * (MAX_FILE_BYTES + 10 - len(text)) + text[-2:]
    page.click("#new-game")
    page.wait_for_selector("html[data-phase='S1901M']", state="attached", timeout=30_000)
    drop_file(page, too_big, "huge.json")
    message = page.inner_text("#message-text")
    assert "huge.json is too large" in message and f"up to {MAX_FILE_BYTES:,}" in message
    assert phase(page) == "S1901M"
    assert recorder.page_errors == []


def test_a_sealed_part_asking_for_a_hostile_iteration_count_is_refused(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    outcome = page.evaluate(
        """async () => {
          const seal = window.adjutantSeal;
          const forge = (iterations) => {
            const bytes = new Uint8Array(1 + 4 + 16 + 12 + 32);
            bytes[0] = 1;
            new DataView(bytes.buffer).setUint32(1, iterations);
            let text = "";
            for (const b of bytes) text += String.fromCharCode(b);
            return btoa(text).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
          };
          const results = [];
          for (const count of [5000000, 1000]) {
            try {
              await seal.unseal("a passphrase", "gm", forge(count));
              results.push("opened");
            } catch (error) {
              results.push(error.message);
            }
          }
          const key = await seal.newKey("a passphrase");
          const part = await seal.seal(key, "gm", new Uint8Array([1, 2, 3]));
          const opened = await seal.unseal("a passphrase", "gm", part);
          results.push(Array.from(opened.plaintext).join(","));
          return results;
        }"""
    )
    assert outcome[0] == "a sealed part asks for 5000000 key iterations; Adjutant accepts 100000 to 1200000"
    assert outcome[1].startswith("a sealed part asks for 1000 key iterations")
    assert outcome[2] == "1,2,3"
    assert recorder.page_errors == []


def test_passphrase_strength_is_shown_and_the_game_master_needs_a_strong_one(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    assert page.inner_text("#passphrase-gm-strength").startswith("Strength: strong")
    page.fill("#passphrase-gm", "passwordpassword")
    strength = page.inner_text("#passphrase-gm-strength")
    assert "fair" in strength and "the game master's needs 60" in strength
    assert page.get_attribute("#passphrase-gm", "aria-describedby") == "passphrase-gm-strength"
    page.fill("#passphrase-england", "password")
    assert "weak" in page.inner_text("#passphrase-england-strength")
    page.click("#passphrase-ok")
    errors = page.inner_text("#passphrase-errors")
    assert "Game master: too easy to guess" in errors and "England" not in errors
    assert page.locator("#passphrase-dialog[open]").count() == 1
    assert recorder.page_errors == []


def test_an_order_with_odd_digits_among_good_ones_is_reported_and_the_good_ones_saved(
    shared_app: tuple[Any, Any]
) -> None:
    page, recorder = shared_app
    new_cluster_game(page)
    before = stored(page, "adjutant.autosave")
    page.fill("#orders-text", "France: Nominate ² later\nFrance: Nominate 3 A Par\nFrance: Nominate " + "9" * 5000)
    page.click("#orders-apply")
    errors = page.eval_on_selector_all("#orders-errors li.rejected", "els => els.map(e => e.textContent)")
    assert len(errors) == 2 and all("which multiple" in e for e in errors)
    page.wait_for_function("before => localStorage.getItem('adjutant.autosave') !== before", arg=before, timeout=20_000)
    # the good line was taken: France's 3x is nominated, its 2x still due
    assert page.locator("select[name='nominate-france-3']").count() == 0
    assert page.locator("select[name='nominate-france-2']").count() == 1
    assert recorder.page_errors == []


def _game_file_link(game_text: str) -> str:
    """The link of a game read from a game file's text (its orders given as the file writes them)."""
    from adjutant.formats.gamefile import loads
    from adjutant.formats.link import encode_link

    game = loads(game_text)
    game.adjudicate()
    return encode_link(game)


def test_links_that_open_a_game_the_panels_could_not_draw_or_a_broken_intake(shared_app: tuple[Any, Any]) -> None:
    """A game with a failed Waive (a file's or link's order the order box refuses) opens and its results
    are told; a game master's link whose list of received orders holds a time no clock shows is refused
    with the reason, and the game in hand, its link and its autosave stay as they were."""
    from adjutant.group_play import codes as group
    from session_games import failed_waive_file

    waive = _game_file_link(failed_waive_file())
    key = group.b64(b"\x04" + bytes(range(64)))
    intake = group.b64(b'{"p":0,"r":{"france":[1e30,"c"]}}')
    gm = f"standard.gm~{key}~c2VhbGVk~{intake}~" + waive.split(".", 1)[1]

    page, recorder, played = _one_move_played(shared_app)
    page.evaluate("h => { location.hash = h; }", gm)
    page.wait_for_selector("#message:not([hidden])", timeout=10_000)
    assert "list of received orders is malformed" in page.inner_text("#message-text")
    assert phase(page) == "F1901M"
    assert page.evaluate("location.hash.slice(1)") == played
    assert stored(page, "adjutant.autosave") == played

    page.evaluate("h => { location.hash = h; }", waive)
    page.wait_for_function("() => document.documentElement.dataset.phase === 'S1902M'", timeout=10_000)
    page.wait_for_function("() => document.getElementById('results').textContent.includes('Winter 1901')",
                           timeout=10_000)
    assert "no adjustment is due" in page.inner_text("#results")
    assert recorder.page_errors == [] and recorder.console_errors == []


@pytest.mark.parametrize("kept", [65, 64, -3, -12])
def test_a_sealed_link_cut_short_in_its_last_seal_is_refused_and_the_game_stays(
    shared_app: tuple[Any, Any], site: Site, kept: int
) -> None:
    """A Cluster link cut short (a chat's line limit, a careless copy) in its last seal: so that it is no
    seal at all, 65 characters (one past a whole group of four, not base64url) or 64 (fewer bytes than a
    seal's header and tag); or a few characters short of the end, still long enough to be a seal (which
    only its tag, failing as for a wrong passphrase, or the link's check tells). Opened, it says the link
    is cut short and shows the game in hand; it must not open as a public view whose every passphrase,
    the game master's too, is then refused."""
    page, recorder = shared_app
    new_cluster_game(page)
    whole = autosaved(page)
    last = whole.rsplit(".", 1)[1]
    assert len(last) > 80
    if kept < 0:
        kept += len(last)
        if kept % 4 == 1:  # one past a whole group of four is refused by its form alone
            kept -= 1
    page = reopen_app(page, site.url + "#" + whole[: len(whole) - len(last) + kept])
    said = page.inner_text("#message-text")
    assert "link could not be opened" in said and "cut short" in said and "Showing your last game" in said, said
    if kept > 66:
        assert "cut short on the way" in said and "ask for it again" in said, said
    assert page.evaluate("location.hash") == "#" + whole
    assert stored(page, "adjutant.autosave") == whole
    assert recorder.page_errors == []


def test_a_wrong_files_message_goes_when_a_new_game_is_started(shared_app: tuple[Any, Any]) -> None:
    """The message of a file that could not be opened ("Your game is unchanged") is about the game it
    left in hand: a new game started from the header takes it away."""
    page, recorder = shared_app
    drop_file(page, "not a game", "notes.json")
    assert "notes.json could not be opened" in page.inner_text("#message-text")
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('message').hidden", timeout=10_000)
    assert recorder.page_errors == []


#: Makes the page's next drawing of a game at Spring 1901 fail, once: a stand-in for anything that fails
#: once another game has been shown (a panel that cannot draw it). The page's own Python is reached
#: through the interpreter the shell started.
FAIL_TO_DRAW_SPRING_1901 = """async () => {
  const python = await window.adjutantShell.python.started;
  python.runPython(`
import adjutant_ui.app as page
drawn = page.App.render
def failing(self):
    if self.session is not None and str(self.session.game.phase) == "S1901M":
        page.App.render = drawn
        raise RuntimeError("a panel could not be drawn")
    return drawn(self)
page.App.render = failing
`);
}"""


def test_a_link_or_file_that_fails_once_shown_puts_the_game_in_hand_back(shared_app: tuple[Any, Any]) -> None:
    """Whatever fails after another game is shown, the game in hand comes back as it was, with its link
    in the address bar and in the autosave, and the page says so truthfully."""
    from adjutant import load_variant
    from adjutant.formats.gamefile import dumps
    from adjutant.formats.link import encode_link
    from adjutant.game import Game

    page, recorder, played = _one_move_played(shared_app)
    fresh = Game.new(load_variant("standard"))
    page.evaluate(FAIL_TO_DRAW_SPRING_1901)
    page.evaluate("h => { location.hash = h; }", encode_link(fresh))
    page.wait_for_function(
        "() => document.getElementById('message-text').textContent.includes('link could not be opened')",
        timeout=20_000)
    said = page.inner_text("#message-text")
    assert "link could not be opened" in said and "a panel could not be drawn" in said and "unchanged" in said
    assert phase(page) == "F1901M"
    assert page.evaluate("location.hash") == "#" + played
    assert stored(page, "adjutant.autosave") == played

    page.evaluate(FAIL_TO_DRAW_SPRING_1901)
    drop_file(page, dumps(fresh), "spring.json")
    said = page.inner_text("#message-text")
    assert "spring.json could not be opened" in said and "a panel could not be drawn" in said, said
    assert phase(page) == "F1901M"
    assert page.evaluate("location.hash") == "#" + played
    assert stored(page, "adjutant.autosave") == played
    # the game in hand plays on: the next phase's orders are taken
    page.fill("#orders-text", "France: A bur - mun")
    page.click("#orders-apply")
    page.wait_for_function("() => document.getElementById('order-list').textContent.includes('Mun')")
    assert recorder.page_errors == []


def test_a_fragment_longer_than_any_paste_of_codes_never_stops_the_page(new_context: Any, site: Site) -> None:
    """A link of more than 2,000,000 characters (Chromium takes it), opened at the start or in the page
    (a hash change): refused by its size, the game in hand kept, and the page goes on."""
    from adjutant.group_play import codes as group

    huge = "standard." + "A" * (group.MAX_PASTE + 10)
    context, recorder = new_context()
    page = open_app(context, site.url + "#" + huge)
    said = page.inner_text("#message-text")
    assert "link could not be opened" in said and "too long" in said, said
    assert phase(page) == "S1901M"
    page.fill("#orders-text", "France: A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    played = autosaved(page)
    page.evaluate("h => { location.hash = h; }", huge)
    page.wait_for_function("() => document.getElementById('message-text').textContent.includes('too long')")
    assert "Your game is unchanged" in page.inner_text("#message-text")
    page.wait_for_function("h => location.hash === '#' + h", arg=played)
    assert phase(page) == "F1901M"
    assert recorder.page_errors == []
