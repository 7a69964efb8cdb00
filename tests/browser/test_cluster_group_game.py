"""A Cluster group game played in browsers that exchange nothing but links, passphrases and codes.

The game master starts a Cluster group game (the game master's passphrase and one per power); two
players, each in a browser context of their own, open the players' link, unlock their own secrets with
their passphrase, draft orders in their own view (nominations by the form and typed, research, moves,
builds) and send sealed orders codes; the game master pastes them, adjudicates and sends the message with
the new players' link. A year of it, checked phase by phase against the same orders adjudicated by the
engine on the game master's game (downloaded at the start). Then the Cluster parts tampered with: each
refused, naming why, the game in hand unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import group_tables
from adjutant.formats.gamefile import from_data
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group
from adjutant_ui.session import order_label
from app_driver import PHONE, Site, adjudicate, in_viewport, open_app, open_new_cluster_dialog, reopen_app, strengths
from group_driver import (
    HOLD_KEYS,
    PASSPHRASES,
    POWERS,
    cluster_gm_fragment,
    engine_units,
    hide_message,
    listed_orders,
    mouse_click_map,
    open_codes,
    order_while_keys_are_made,
    players_link,
    ready_after_keys,
    rechecked,
    send,
    show_message,
    shown,
    start_cluster_group_game,
    unit_places,
    unlock,
)
from group_tables import Devices

#: the browsers the tests share: the game master's and the players' (group_tables.py)
shared_devices, devices = group_tables.shared_devices, group_tables.devices


def open_players_link(page: Any, link: str, power: str, phase: str) -> None:
    """A player opens the players' link (the public view), then unlocks their own secrets."""
    page.evaluate("h => { location.hash = h; }", link.split("#", 1)[1])
    page.wait_for_function("p => document.documentElement.dataset.phase === p", arg=phase, timeout=20_000)
    assert not page.locator("#send-orders").is_enabled()
    said = unlock(page, PASSPHRASES[power])
    assert said.startswith("Unlocked the secrets of"), said
    page.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=10_000)


def test_a_cluster_group_plays_a_year_by_codes(devices: Devices, new_context: Any, site: Site) -> None:
    gm = devices.new_game("gm")
    fragment = start_cluster_group_game(gm)
    assert gm.locator("#group-gm").is_visible() and gm.locator("#open-codes").is_enabled()
    with gm.expect_download() as download:
        gm.click("#download")
    ref = from_data(json.loads(Path(download.value.path()).read_text(encoding="utf-8")))
    # the game master's link holds no secret in the clear: its public part is the public view
    assert cg.read_link(fragment).public == cluster_views.public_data(ref)

    link = players_link(gm)
    assert ".grp~" in link
    read = cg.read_link(link.split("#", 1)[1])
    assert read.public == cluster_views.public_data(ref) and set(read.seals) == set(POWERS)
    pages: dict[str, Any] = {}
    for power in ("france", "germany"):
        page = devices.page(f"player-{power}", link)
        assert page.locator("#unlock-form").is_visible()
        # a wrong passphrase (another power's would open that power's: each player has only their own)
        assert "opens none" in unlock(page, "not-a-passphrase-at-all")
        said = unlock(page, PASSPHRASES[power])
        assert said.startswith("Unlocked the secrets of"), said
        page.wait_for_function("p => document.getElementById('orders-power').value === p", arg=power)
        pages[power] = page
    france, germany = pages["france"], pages["germany"]

    # Spring 1901: France nominates by the form, Germany by typing; research and moves typed
    france.select_option("select[name='nominate-france-3']", "par")
    france.select_option("select[name='nominate-france-2']", "")
    france.click("[data-action='nominate-france']")
    assert france.locator("[data-action='nominate-germany']").count() == 0  # only their own power's
    listed = france.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)")
    assert sorted(listed) == ["FRA: Nominate 2 later", "FRA: Nominate 3 Par"], listed
    orders = {
        "france": ["A Par - Bur", "F Bre RES", "A Mar H"],
        "germany": ["Nominate 3 ber", "Nominate 2 kie", "A Mun - Ruh", "F Kie - Den"],
    }
    ref.nominate("france", 3, "par")
    ref.nominate("france", 2, None)
    plans = [
        orders,
        {"france": ["A Bur H", "F Bre - Mao"], "germany": ["A Ruh - Hol", "F Den H", "A Ber - Kie"]},
    ]
    for phase_orders in plans:
        codes = []
        for power, texts in phase_orders.items():
            assert not [p for p in ref.add_orders("\n".join(texts), power) if not p.kept]
            codes.append(f"From: {power}\n{send(pages[power], texts)}\n")
        log = open_codes(gm, "\n".join(codes))
        assert all(line.startswith("kept: ") for line in log), log
        assert sorted(gm.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)")) == sorted(
            f"{ref.variant.powers[p].abbrev}: {order_label(ref.variant, o)}"
            for p, os in ref.all_orders().items()
            for o in os
        )
        before = cluster_gm_fragment(gm)
        adjudicate(gm)
        ref.adjudicate()
        after = cluster_gm_fragment(gm, before)
        assert unit_places(gm) == engine_units(ref)
        assert cg.read_link(after).public == cluster_views.public_data(ref)
        old = gm.input_value("#players-message")
        gm.click("#message-players")
        gm.wait_for_function(
            "old => document.getElementById('players-message').value !== old", arg=old, timeout=20_000
        )
        message = gm.input_value("#players-message")
        found = re.search(r"https?://\S+#\S+", message)
        assert found is not None and "Results for" in message
        new_link = found.group(0)
        public = cg.read_link(new_link.split("#", 1)[1]).public
        assert public == cluster_views.public_data(ref)  # no secret, no pending order: the public view
        for secret in ("seed", "sites", "nominat", "knowledge"):
            assert secret not in json.dumps(public).lower(), secret
        for power, page in pages.items():
            open_players_link(page, new_link, power, str(ref.phase))
            assert unit_places(page) == engine_units(ref)
            state = ref.position.variant_state
            own = {p: str(a.level) for p, a in (state.auras.items() if state else [])
                   if ref.units[p].power == power or a.revealed}
            assert strengths(page) == own

    assert str(ref.phase) == "W1901A"
    assert ref.adjustments()["germany"] == 2
    # Winter: Germany builds in its own view and sends them
    builds = ["Build A ber", "Build A mun"]
    assert not [p for p in ref.add_orders("\n".join(builds), "germany") if not p.kept]
    log = open_codes(gm, send(germany, builds))
    assert log[0].startswith("kept: ") and "Germany: 2 orders in" in log[0], log
    adjudicate(gm)
    ref.adjudicate()
    gm.wait_for_function("p => document.documentElement.dataset.phase === p", arg=str(ref.phase))
    assert unit_places(gm) == engine_units(ref)
    assert str(ref.phase) == "S1902M"

    # --- the Cluster parts tampered with ---
    held = cluster_gm_fragment(gm)
    link = players_link(gm)
    text = link.split("#", 1)[1]
    read = cg.read_link(text)
    # the public part changed (a centre given to another power), the sealed parts kept: a player's part
    # does not open beside it
    forged = json.loads(json.dumps(read.public))
    forged["centres"]["france"] = [c for c in forged["centres"]["france"] if c != "par"]
    forged["centres"]["germany"].append("par")
    forged_text = group.b64(cg.raw_deflate(cg.canonical_json(forged)))
    forged_link = rechecked(text.replace(read.public_text, forged_text))  # a forger makes the check too
    france.evaluate("h => { location.hash = h; }", forged_link)
    france.wait_for_function("() => document.getElementById('send-orders').disabled")  # the public view again
    said = unlock(france, PASSPHRASES["france"])
    assert "public part was changed" in said and "Nothing has changed" in said, said
    assert not france.locator("#send-orders").is_enabled()
    # the game master's part of an earlier phase beside today's public part: it does not open
    old_part = cg.read_link(fragment).gm_part
    stale = rechecked(held.replace(cg.read_link(held).gm_part, old_part))
    again = devices.page("player-germany", site.url + "#" + stale)  # (Germany's browser: done with its orders)
    again.fill("#gm-passphrase", PASSPHRASES["gm"])
    again.click("#gm-unlock")
    said = show_message(again)
    assert "game master's part could not be opened" in said and "Nothing has changed" in said, said
    assert not again.locator("#open-codes").is_enabled()
    # the game master's own link, reopened in a fresh browser: the passphrase opens the whole game
    third, _ = new_context()
    back = open_app(third, site.url + "#" + held)
    assert unit_places(back) == engine_units(ref)
    assert strengths(back) == {p: str(a.level) for p, a in ref.position.variant_state.auras.items() if a.revealed}
    said = unlock(back, PASSPHRASES["gm"] + " ")  # (a space copied with it is no matter)
    assert "Unlocked" in said, said
    back.wait_for_selector("#open-codes:not([disabled])")
    assert strengths(back) == {p: str(a.level) for p, a in ref.position.variant_state.auras.items()}


def test_the_game_shown_takes_no_orders_while_a_cluster_group_games_keys_are_made(
    new_context: Any, site: Site
) -> None:
    context, _ = new_context()
    context.add_init_script(HOLD_KEYS)
    page = open_app(context, site.url)
    page.select_option("#game-kind", "group")
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    page.click("#passphrase-ok")
    order_while_keys_are_made(page)
    ready_after_keys(page, "cluster")


def test_orders_given_while_a_new_cluster_games_keys_are_made_are_kept(new_context: Any, site: Site) -> None:
    """A new Cluster game (Sandbox) is shown at once and takes orders while its keys are made (held here):
    clicked and typed, adjudicated before the keys are ready; once they are, the sealed link holds it all."""
    context, _ = new_context()
    context.add_init_script(HOLD_KEYS)
    page = open_app(context, site.url)
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    page.click("#passphrase-ok")
    shown(page, "cluster")
    assert page.evaluate("window.__keysHeld()") > 0  # the keys are still being made
    assert "Making its keys" in page.inner_text("#message-text")
    mouse_click_map(page, "par", unit=True)
    mouse_click_map(page, "bur", unit=False)
    page.select_option("#orders-power", "france")
    page.fill("#orders-text", "F bre - mao")
    page.click("#orders-apply")
    assert listed_orders(page) == ["FRA: A Par - Bur", "FRA: F Bre - Mao"]
    page.click("#adjudicate")
    assert "Paris" not in page.inner_text("#adjudicate-warning")  # (its order is in)
    page.click("#adjudicate-anyway")
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    moved = '#map .adj-unit[data-location="{}"][data-power="france"]'
    assert page.locator(moved.format("bur")).count() == 1 and page.locator(moved.format("mao")).count() == 1
    assert not page.evaluate("location.hash").startswith("#cluster.s=")  # nothing sealed yet
    page.evaluate("window.__releaseKeys()")
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=3~')", timeout=20_000)
    page.wait_for_function("() => document.getElementById('message').hidden", timeout=20_000)
    fragment = str(page.evaluate("location.hash"))
    # the sealed link (its public view, in a fresh page) holds the adjudicated moves
    again = reopen_app(page, site.url + fragment)
    assert again.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert again.locator(moved.format("bur")).count() == 1 and again.locator(moved.format("mao")).count() == 1


def _cut_in_last_part(fragment: str, last: str) -> str:
    """``fragment`` cut a few characters before its end, inside its last part, which stays long enough
    to be a seal (so only its tag, failing as for a wrong passphrase, or the link's check tells)."""
    kept = len(last) - 9 - (1 if (len(last) - 9) % 4 == 1 else 0)
    assert kept * 3 // 4 >= cg.MIN_SEAL_BYTES and fragment.endswith(last)
    return fragment[: len(fragment) - len(last) + kept]


def test_cluster_group_links_cut_short_in_their_last_part_are_refused_when_opened(devices: Devices) -> None:
    """An email or chat program cuts the players' link inside the last power's part, or the game master's
    link inside the game master's part: opened, each is refused at once as cut short on the way (not
    opened as a public view whose right passphrase is then refused), and the game in hand stays."""
    gm = devices.new_game("gm")
    held = start_cluster_group_game(gm)
    link = players_link(gm).split("#", 1)[1]
    cuts = [
        _cut_in_last_part(link, link.rsplit(".", 1)[1]),
        _cut_in_last_part(held, cg.read_link(held).gm_part),
    ]
    page = devices.new_game("player-germany")
    for cut in cuts:
        hide_message(page)
        page.evaluate("h => { location.hash = h; }", cut)
        said = show_message(page)
        assert "could not be opened" in said and "cut short on the way" in said and "ask for it again" in said, said
        # the game in hand (a new Standard game) stays, and the address bar holds its link again
        page.wait_for_function("() => location.hash.startsWith('#standard.')", timeout=10_000)
        assert page.evaluate("document.documentElement.dataset.phase") == "S1901M"
        assert not page.locator("#unlock-form").is_visible()
    assert devices.page_errors("player-germany") == []


#: the words of an element's text that are broken across two lines
WORDS_SPLIT = """sel => { const node = document.querySelector(sel).firstChild, split = [];
  for (const m of node.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) split.push(m[0]);
  }
  return split; }"""


#: The controls among the selectors given that are under a finger's tap height (2.75em, as web/app.css gives
#: the group panels' controls), with their height and that of 2.75em where they are.
UNDER_FINGER_HEIGHT = """selectors => selectors.map(s => document.querySelector(s))
    .map(e => [e.id, e.getBoundingClientRect().height, 2.75 * parseFloat(getComputedStyle(e).fontSize)])
    .filter(([, height, finger]) => height < finger - 0.5)"""


def player_on_a_phone(devices: Devices) -> Any:
    """A new Cluster group game's players' link opened on a phone, before any passphrase."""
    gm = devices.new_game("gm")
    start_cluster_group_game(gm)
    return devices.page("phone", players_link(gm), **PHONE)


def test_a_cluster_player_on_a_phone_is_led_to_the_passphrase_first(devices: Devices) -> None:
    """Before a Cluster player's passphrase is entered, the page says that is the step (not that only the
    game master gives orders), and the phone's shortcut button takes them to the passphrase field."""
    player = player_on_a_phone(devices)
    prompt = player.inner_text("#click-prompt")
    assert "passphrase" in prompt and "Only the game master" not in prompt, prompt
    assert "enter your passphrase" in player.inner_text("#group-jump")
    player.locator("#group-jump").tap()
    player.wait_for_function("document.activeElement.id === 'unlock-passphrase'")
    assert in_viewport(player, "#unlock-passphrase")


def test_a_cluster_players_wrong_passphrase_on_a_phone_is_said_beside_the_field(devices: Devices) -> None:
    """A player on a phone mistypes their passphrase (Enter on the phone's keyboard): the refusal is said
    beside the Secrets field, on screen with it (the page is not scrolled up to the message at the top,
    leaving the focused field out of sight), the field keeps the focus with the wrong passphrase selected,
    so typing again replaces it; the right one then clears the refusal."""
    player = player_on_a_phone(devices)
    player.locator("#group-jump").tap()
    player.wait_for_function("document.activeElement.id === 'unlock-passphrase'")
    assert player.evaluate(UNDER_FINGER_HEIGHT, ["#unlock-passphrase", "#unlock"]) == []
    hide_message(player)
    player.fill("#unlock-passphrase", "france-passphrase-71")
    player.press("#unlock-passphrase", "Enter")
    said = show_message(player)
    assert "opens none" in said, said
    player.wait_for_function("() => document.getElementById('unlock-status').textContent !== ''", timeout=10_000)
    assert "opens none" in player.inner_text("#unlock-status")
    assert in_viewport(player, "#unlock-status") and in_viewport(player, "#unlock-passphrase")
    assert player.evaluate("document.activeElement.id") == "unlock-passphrase"
    selected = ("(() => { const e = document.getElementById('unlock-passphrase');"
                " return [e.selectionStart, e.selectionEnd]; })()")
    assert player.evaluate(selected) == [0, len("france-passphrase-71")]
    player.keyboard.type(PASSPHRASES["france"])
    player.keyboard.press("Enter")
    player.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=20_000)
    assert player.inner_text("#unlock-status") == ""
    assert player.input_value("#unlock-passphrase") == ""
    # the field folds away once France's secrets are open, the focus on the button that opens it again
    # (not lost to the page), and the message saying what to do next is brought on screen
    assert not player.locator("#unlock-form").is_visible()
    assert player.evaluate("document.activeElement.id") == "unlock-another"
    assert player.evaluate(UNDER_FINGER_HEIGHT, ["#unlock-another"]) == []
    # the message saying so wraps between words on a phone, never inside one ("tr ansfer")
    player.wait_for_function("() => document.getElementById('message-text').textContent.startsWith('Unlocked')")
    assert in_viewport(player, "#message-text")
    assert player.evaluate(WORDS_SPLIT, "#message-text") == []


def test_a_cluster_game_master_on_a_phone_is_led_to_the_players_link(devices: Devices) -> None:
    """Once a Cluster group game starts, the game master on a phone is shown the players' link with its
    Copy button focused (as in any group game), and told where the passphrases to send are: the Secrets
    panel's "Passphrases…" button (no button is called "Show passphrases")."""
    gm = devices.new_game("phone", **PHONE)
    start_cluster_group_game(gm)
    gm.wait_for_function("() => document.getElementById('players-link').value.includes('.grp~')", timeout=20_000)
    gm.wait_for_function("() => document.activeElement.id === 'copy-public-link'", timeout=10_000)
    assert in_viewport(gm, "#copy-public-link")
    said = gm.inner_text("#group-status")
    assert "players' link" in said and "Passphrases…" in said and "Secrets" in said, said
    assert gm.locator("#show-passphrases").inner_text() == "Passphrases…"
