"""A game master runs a Cluster game in the browser and shares it as one sealed link.

The game master starts the game with a passphrase for themselves and one per power, nominates multiple
units, enters orders, adjudicates and copies the link. The test decodes the link itself: the public part
holds no secret and the sealed parts cannot be read. A fresh browser opening the link sees the public
view; a player's passphrase shows that power's secrets only; a wrong one changes nothing; the game
master's restores the whole game, which can be adjudicated.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

from adjutant_ui.sealed import decode_sealed_link
from app_driver import Site, adjudicate, open_app, open_new_cluster_dialog, phase, strengths
from group_driver import PASSPHRASES, POWERS, sealed_link, unit_places

WRONG = "that passphrase opens none of this game's secrets"
MARKUP = '<img src=x onerror="window.__pwned=1">'


def sites(page: Any) -> dict[str, int]:
    drawn = page.eval_on_selector_all("#map .adj-site", "els => els.map(e => [e.dataset.province, e.dataset.level])")
    return {province: int(level) for province, level in drawn}


def unlock(page: Any, passphrase: str) -> str:
    """Enter a passphrase; returns the message the page shows."""
    page.evaluate("document.getElementById('message').hidden = true")
    page.fill("#unlock-passphrase", passphrase)
    page.click("#unlock")
    page.wait_for_selector("#message:not([hidden])", timeout=20_000)
    return str(page.inner_text("#message-text"))


def decode_fragment(fragment: str) -> dict[str, Any]:
    # the variant, readable, for the page's first paint; then the link's version (2: the compact parts)
    assert fragment.startswith("cluster.s=3~")
    link = decode_sealed_link("#" + fragment)
    return {"version": 2, "public": link.public, "sealed": link.sealed}


def holds_all(data: Any, provinces: set[str]) -> bool:
    """Whether some object or list in ``data`` names every one of ``provinces`` (as keys or items)."""
    if isinstance(data, dict):
        return provinces <= set(data) or any(holds_all(v, provinces) for v in data.values())
    if isinstance(data, list):
        return provinces <= {x for x in data if isinstance(x, str)} or any(holds_all(v, provinces) for v in data)
    return False


def test_a_game_master_runs_a_cluster_game_and_shares_one_sealed_link(new_context: Any, site: Site) -> None:
    context, recorder = new_context(service_workers="allow")
    page = open_app(context, site.url)

    # New game -> Cluster.
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    generated = page.eval_on_selector_all("#passphrase-fields input", "els => els.map(e => e.value)")
    assert len(generated) == 8 and len(set(generated)) == 8 and all(len(g) == 19 for g in generated)
    # Too short and repeated passphrases are refused, with the reason.
    page.fill("#passphrase-gm", "short")
    page.fill("#passphrase-england", generated[1])  # Austria's
    page.click("#passphrase-ok")
    errors = page.inner_text("#passphrase-errors")
    assert "Game master: a passphrase needs at least 8 characters" in errors and "the same passphrase as" in errors
    for part, phrase in PASSPHRASES.items():
        page.fill(f"#passphrase-{part}", phrase)
    page.click("#passphrase-ok")
    page.wait_for_selector("#map[data-variant='cluster']", state="attached", timeout=20_000)
    first = sealed_link(page)
    assert phase(page) == "S1901M"
    assert "Game master" in page.inner_text("#secrets-role")
    assert page.locator("#download-note").is_visible()
    assert page.locator("#map-legend").is_visible()
    site_map = sites(page)
    assert len(site_map) == 21 and sorted(set(site_map.values())) == [1, 2, 3]

    # Nominations: England's 3x is F edi and its 2x a later build; France's are A mar and F bre.
    page.select_option("select[name='nominate-england-3']", "edi")
    page.select_option("select[name='nominate-england-2']", "")
    page.click("[data-action='nominate-england']")
    page.select_option("select[name='nominate-france-3']", "mar")
    page.select_option("select[name='nominate-france-2']", "bre")
    page.click("[data-action='nominate-france']")
    assert page.locator("[data-action='nominate-england'], [data-action='nominate-france']").count() == 0
    assert page.locator("[data-action='nominate-germany']").count() == 1

    # Orders as text, then adjudicate.
    page.fill("#orders-text", "France: A par - bur\nEngland: F lon - nth")
    page.click("#orders-apply")
    assert page.inner_text("#orders-errors") == ""
    adjudicate(page)
    assert phase(page) == "F1901M"
    # what the game master copies for the players is rule 7's report (Session.players_results_text)
    assert page.inner_text("#copy-results") == "Copy results for the players"
    position = unit_places(page)
    assert "france bur" in position and "england nth" in position
    # The nominations took effect as the phase was adjudicated.
    assert strengths(page) == {"edi": "3", "mar": "3", "bre": "2"}

    page.evaluate("document.getElementById('message').hidden = true")
    page.click("#copy-link")
    page.wait_for_selector("#message.info:not([hidden])", timeout=20_000)
    link = sealed_link(page, "#" + first)
    assert link in page.inner_text("#message-text") or "copied" in page.inner_text("#message-text")

    # The address bar and the autosave hold the sealed link, never the game in the clear; the game
    # master's download is the whole game file.
    assert page.evaluate("localStorage.getItem('adjutant.autosave')") == link
    with page.expect_download() as download_info:
        page.click("#download")
    game_file = json.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert game_file["variant"] == "cluster" and game_file["cluster"]["seed"] is not None

    # The link decoded here: the public part holds no secret; the sealed parts read as noise.
    payload = decode_fragment(link)
    assert payload["version"] == 2
    assert set(payload["sealed"]) == {"gm", *POWERS}
    public = json.dumps(payload["public"])
    for secret in ("seed", "site", "nominat", "strength", "knowledge"):
        assert secret not in public.lower(), secret
    assert not holds_all(payload["public"], set(site_map))
    for name, blob in payload["sealed"].items():
        data = base64.urlsafe_b64decode(blob + "=" * (-len(blob) % 4))
        assert data[0] == 1 and int.from_bytes(data[1:5], "big") >= 100_000, name
        assert len(data) > 1 + 4 + 16 + 12 + 16
        # (words of four letters or more: a shorter one turns up in random bytes too often)
        for secret in (b"seed", b"sites", b"nominat", b'"part"', PASSPHRASES[name].encode()):
            assert secret not in data, (name, secret)
        for word in ("seed", "site", "nominat", "passphrase"):
            assert word not in blob.lower()

    # A fresh browser: the public view shows no sites and no strengths, and cannot be played.
    other, other_recorder = new_context(service_workers="allow")
    requested: list[Any] = []
    other.on("request", lambda request: requested.append(request))
    player = open_app(other, site.url + "#" + link)
    assert phase(player) == "F1901M"
    # the Cluster map painted first, read from the link's start (never the standard map); the page's own
    # requests (its service worker later fetches every map, for offline use; the variants' data, maps/*.json,
    # are all written into Python's home)
    maps = [
        r.url.rsplit("/", 1)[1]
        for r in requested
        if "/maps/" in r.url and r.url.endswith(".svg") and r.service_worker is None
    ]
    assert maps == ["cluster.svg"]
    assert unit_places(player) == position
    assert sites(player) == {} and strengths(player) == {}
    assert "Public view" in player.inner_text("#secrets-role")
    assert player.locator("#adjudicate").is_disabled()
    assert not player.locator("#map-legend").is_visible()

    # A wrong passphrase: the clear message, and nothing changes.
    assert WRONG in unlock(player, "not-anyones-passphrase").lower()
    assert phase(player) == "F1901M" and unit_places(player) == position and strengths(player) == {}
    assert player.evaluate("location.hash") == "#" + link

    # England's passphrase: England's multiple only (its 2x is a later build), no sites.
    assert "England" in unlock(player, PASSPHRASES["england"] + " ")  # (a space copied with it is no matter)
    assert strengths(player) == {"edi": "3"}
    assert sites(player) == {}
    assert player.locator("#adjudicate").is_disabled()

    # England's secrets open, the passphrase field is folded away behind "Another passphrase…", which
    # opens it again with the focus in it.
    assert not player.locator("#unlock-form").is_visible()
    player.click("#unlock-another")
    assert player.locator("#unlock-form").is_visible() and not player.locator("#unlock-again").is_visible()
    assert player.evaluate("document.activeElement.id") == "unlock-passphrase"

    # The game master's passphrase: the whole game, which can be adjudicated (the game master's view has
    # no passphrase field at all).
    assert "game master" in unlock(player, " " + PASSPHRASES["gm"]).lower()
    assert not player.locator("#unlock-form").is_visible() and not player.locator("#unlock-again").is_visible()
    assert sites(player) == site_map
    assert strengths(player) == {"edi": "3", "mar": "3", "bre": "2"}
    assert player.locator("#adjudicate").is_enabled()
    adjudicate(player)
    assert phase(player) in ("W1901A", "S1902M")
    again = sealed_link(player, "#" + link)
    assert set(decode_fragment(again)["sealed"]) == {"gm", *POWERS}
    played = phase(player)

    # A hostile sealed link (markup in its public part): a clear message; the game in hand stays.
    hostile = {"version": 1, "public": {"variant": MARKUP, "game": MARKUP}, "sealed": {"gm": "AQAAAA"}}
    raw = zlib.compress(json.dumps(hostile).encode(), 9)[2:-4]
    player.evaluate("h => { location.hash = h; }", "s=" + base64.urlsafe_b64encode(raw).decode().rstrip("="))
    player.wait_for_selector("#message.error:not([hidden])", timeout=20_000)
    assert "could not be opened" in player.inner_text("#message-text")
    assert player.locator("#message img").count() == 0 and player.evaluate("window.__pwned") is None
    assert phase(player) == played and sites(player) == site_map
    assert player.locator("#adjudicate").is_enabled()

    for rec in (recorder, other_recorder):
        assert rec.page_errors == []
