"""Helpers the browser tests of games shared by links share: a group game's (Standard's, Cluster's) game
master's link and the players' link, passphrases, orders sent as sealed codes and codes opened, and a
Cluster game's sealed link; the engine's view of the same units, to check the page against."""

from __future__ import annotations

from typing import Any

from adjutant.game import Game
from adjutant.group_play import codes as group
from app_driver import adjudicate

PASSPHRASE = "the game master's passphrase"


def unit_places(page: Any) -> list[str]:
    script = "els => els.map(e => e.dataset.power + ' ' + e.dataset.location)"
    return sorted(page.eval_on_selector_all("#map .adj-unit", script))


def engine_units(game: Game) -> list[str]:
    """The units the map draws: on the board, and the dislodged ones of a retreat phase."""
    dislodged = [d.unit for d in game.position.dislodged]
    return sorted(f"{u.power} {u.location}" for u in [*game.units.values(), *dislodged])


def gm_fragment(page: Any, before: str = "") -> str:
    page.wait_for_function(
        "before => location.hash.includes('.gm~') && location.hash !== before", arg=before, timeout=20_000
    )
    return str(page.evaluate("location.hash")).lstrip("#")


#: Holds every key derivation of web/seal.js (PBKDF2, seconds on a phone) until the test calls
#: ``window.__releaseKeys()``: the page is caught, deterministically, while a new game's keys are made.
HOLD_KEYS = """(() => {
  const waiting = [];
  let held = true, seal;
  window.__releaseKeys = () => { held = false; waiting.splice(0).forEach(go => go()); };
  window.__keysHeld = () => waiting.length;
  Object.defineProperty(window, "adjutantSeal", {
    configurable: true,
    get() { return seal; },
    set(value) {
      const newKey = value.newKey;
      value.newKey = async (...args) => {
        if (held) await new Promise(go => waiting.push(go));
        return newKey(...args);
      };
      seal = value;
    },
  });
})();"""


def shown(page: Any, variant: str) -> None:
    """Wait until the game of ``variant`` is shown and takes orders (its map in, the table no longer inert)."""
    page.wait_for_function(
        "v => document.getElementById('map').dataset.variant === v && !document.querySelector('main.table').inert",
        arg=variant,
        timeout=20_000,
    )


def listed_orders(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)"))


def mouse_click_map(page: Any, location: str, unit: bool) -> None:
    """A click where a user clicks (the mouse at the spot, not an event sent to an element), the map scrolled
    into view first as a user scrolls to it."""
    selector = f'#map .adj-unit[data-location="{location}"]' if unit else f'#map [id="{location}"]'
    page.locator(selector).first.scroll_into_view_if_needed()
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def order_while_keys_are_made(page: Any) -> None:
    """While a new group game's keys are made (held): the game shown, about to be replaced, takes no order
    (the table is inert and marked busy, the message says why), neither clicked nor typed."""
    page.wait_for_function("() => window.__keysHeld() > 0", timeout=10_000)
    for selector in ("main.table", "header .new-game"):
        assert page.evaluate("s => document.querySelector(s).inert", selector), selector
        assert page.get_attribute(selector, "aria-busy") == "true", selector
    assert page.locator("#message").is_visible()
    assert "takes no orders meanwhile" in page.inner_text("#message-text")
    mouse_click_map(page, "par", unit=True)
    mouse_click_map(page, "bur", unit=False)
    page.locator("#orders-text").focus()
    page.keyboard.type("A Par - Bur")
    assert listed_orders(page) == [] and page.input_value("#orders-text") == ""


def ready_after_keys(page: Any, variant: str) -> None:
    """The keys are released: the new game is shown, and takes orders (clicked) that adjudicate."""
    page.evaluate("window.__releaseKeys()")
    shown(page, variant)
    gm_fragment(page)
    assert not page.evaluate("document.querySelector('main.table').inert")
    assert page.get_attribute("main.table", "aria-busy") is None
    mouse_click_map(page, "par", unit=True)
    mouse_click_map(page, "bur", unit=False)
    assert listed_orders(page) == ["FRA: A Par - Bur"]
    adjudicate(page)
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert page.locator('#map .adj-unit[data-location="bur"][data-power="france"]').count() == 1


def start_group_game(page: Any, variant: str) -> str:
    page.select_option("#variant-select", variant)
    page.select_option("#game-kind", "group")
    page.click("#new-game")
    page.wait_for_selector("#group-dialog[open]", timeout=5_000)
    assert len(page.input_value("#group-passphrase")) == 19  # one is offered
    page.fill("#group-passphrase", "short")
    page.click("#group-ok")
    assert "at least 8 characters" in page.inner_text("#group-errors")
    page.fill("#group-passphrase", PASSPHRASE)
    page.click("#group-ok")
    page.wait_for_selector(f"#map[data-variant='{variant}']", state="attached", timeout=20_000)
    fragment = gm_fragment(page)
    assert page.locator("#group-gm").is_visible() and not page.locator("#gm-unlock-form").is_visible()
    return fragment


def send(page: Any, orders: list[str]) -> str:
    """A player enters orders as text and sends them: the sealed code."""
    before = page.input_value("#orders-code")
    if orders:
        page.fill("#orders-text", "\n".join(orders))
        page.click("#orders-apply")
        assert page.locator("#orders-errors li.rejected").count() == 0, page.inner_text("#orders-errors")
    page.click("#send-orders")
    page.wait_for_function(
        "before => { const v = document.getElementById('orders-code').value;"
        " return v.startsWith('orders~') && v !== before; }",
        arg=before,
        timeout=10_000,
    )
    return page.input_value("#orders-code")


def open_codes(page: Any, text: str) -> list[str]:
    """The game master pastes ``text`` and opens the codes in it: the log's lines."""
    page.evaluate("document.getElementById('codes-log').replaceChildren()")
    page.fill("#codes-text", text)
    page.click("#open-codes")
    page.wait_for_selector("#codes-log li", timeout=10_000)
    script = "els => els.map(e => e.className + ': ' + e.textContent)"
    return [str(t) for t in page.eval_on_selector_all("#codes-log li", script)]


POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]


PASSPHRASES = {"gm": "game-master-passphrase", **{p: f"{p}-passphrase-17" for p in POWERS}}


def show_message(page: Any) -> str:
    """The message the page shows once it is done (not one of work in progress, which ends in "…")."""
    page.wait_for_function(
        "() => !document.getElementById('message').hidden"
        " && !document.getElementById('message-text').textContent.endsWith('…')",
        timeout=30_000,
    )
    return str(page.inner_text("#message-text"))


def hide_message(page: Any) -> None:
    page.evaluate("document.getElementById('message').hidden = true")


def unlock(page: Any, passphrase: str) -> str:
    hide_message(page)
    page.fill("#unlock-passphrase", passphrase)
    page.click("#unlock")
    return show_message(page)


def cluster_gm_fragment(page: Any, before: str = "") -> str:
    page.wait_for_function(
        "before => location.hash.startsWith('#cluster.gm~') && location.hash !== before", arg=before, timeout=20_000
    )
    return str(page.evaluate("location.hash")).lstrip("#")


def start_cluster_group_game(page: Any) -> str:
    """A new Cluster group game, as its game master, once its first game master's link is made."""
    before = str(page.evaluate("location.hash"))
    page.evaluate(
        """() => { const select = document.getElementById('variant-select');
          if (![...select.options].some(o => o.value === 'cluster')) select.add(new Option('Cluster', 'cluster')); }"""
    )
    page.select_option("#variant-select", "cluster")
    page.select_option("#game-kind", "group")
    page.click("#new-game")
    page.wait_for_selector("#passphrase-dialog[open]", timeout=5_000)
    for part, phrase in PASSPHRASES.items():
        page.fill(f"#passphrase-{part}", phrase)
    page.click("#passphrase-ok")
    return cluster_gm_fragment(page, before)


def players_link(gm: Any) -> str:
    """The players' link, as "Copy players' link" copies it (the clipboard is the page's own here)."""
    gm.evaluate("() => { window.__copied = ''; navigator.clipboard.writeText = async t => { window.__copied = t; }; }")
    gm.click("#copy-public-link")
    gm.wait_for_function("() => window.__copied !== ''", timeout=20_000)
    return str(gm.evaluate("window.__copied"))


def rechecked(fragment: str) -> str:
    """A Cluster group link whose parts were changed, with the check of its parts as they now are (as one
    who forges a link makes it: the check only tells a link damaged on the way)."""
    parts = fragment.split("~")
    at = next(i for i, part in enumerate(parts) if group.is_link_check(part))
    covered = parts[1:at] + parts[at + 1 :]
    if ".grp" in parts[0] and len(parts) == 6:
        covered = covered[:-1]  # the trailing power is not covered
    parts[at] = group.link_check("~".join(covered))
    return "~".join(parts)


def sealed_link(page: Any, before: str = "") -> str:
    """The sealed link in the address bar, once it is there (and differs from ``before``)."""
    page.wait_for_function(
        "before => location.hash.startsWith('#cluster.s=') && location.hash !== before", arg=before, timeout=20_000
    )
    return str(page.evaluate("location.hash")).lstrip("#")


#: Every visible control of the group panels, with its box and whether it lies inside the viewport.
CONTROLS = """() => [...document.querySelectorAll(
    '#group-jump, #group :is(button, select, input, textarea), #group-send :is(button, textarea)')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
    return {id: e.id, width: r.width, height: r.height, left: r.left, right: r.right}; })"""


def assert_fits_a_phone(page: Any) -> None:
    """No sideways scroll of the page, and every group control at least 24 CSS px each way, within the width."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    controls = page.evaluate(CONTROLS)
    assert controls
    for control in controls:
        assert control["width"] >= 24 and control["height"] >= 24, control
        assert control["left"] >= 0 and control["right"] <= 390, control
