"""Nothing is lost: each game keeps its own save, listed under Recent games; a game that replaces another
pushes a history entry (Back returns to the one before); tabs keep their own games and notice each other's
writes; a save too large to copy is offered as a download; the game master's adjudication is saved at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_driver import (
    Site,
    adjudicate,
    autosaved,
    new_cluster_game,
    new_game,
    open_app,
    open_new_cluster_dialog,
    phase,
    reopen_app,
)
from group_driver import start_cluster_group_game


def play(page: Any, orders: str) -> None:
    page.fill("#orders-text", orders)
    page.click("#orders-apply")
    adjudicate(page)


def recent(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#recent-select option", "els => els.map(e => e.textContent)"))


def wait_phase(page: Any, wanted: str) -> None:
    page.wait_for_selector(f"html[data-phase='{wanted}']", state="attached", timeout=30_000)


def test_a_new_game_keeps_the_old_one_under_recent_games_and_back_returns_to_it(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    play(page, "France: A par - bur")
    assert phase(page) == "F1901M"
    first = page.evaluate("location.hash")

    page.click("#new-game")  # the played game stays reachable: no question
    wait_phase(page, "S1901M")
    assert dialogs == []
    assert any("Standard" in label and "F1901M" in label for label in recent(page))

    page.go_back()
    wait_phase(page, "F1901M")
    assert page.evaluate("location.hash") == first
    page.go_forward()
    wait_phase(page, "S1901M")

    # Recent games, by keyboard: choose, then Open.
    page.focus("#recent-select")
    page.select_option("#recent-select", index=1)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_phase(page, "F1901M")
    page.go_back()
    wait_phase(page, "S1901M")
    assert dialogs == [] and recorder.page_errors == []


def test_replacing_a_game_that_could_not_be_saved_asks_first(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    page.evaluate(
        "() => { Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); }; }"
    )
    play(page, "France: A par - bur")
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#new-game")
    page.wait_for_timeout(300)  # (the question is synchronous: by now it has been asked, or never will be)
    assert len(asked) == 1 and "not saved" in asked[0]
    assert phase(page) == "F1901M"
    assert recorder.page_errors == []


def test_two_tabs_keep_their_own_games_and_see_each_others_writes(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    first = open_app(context, site.url)
    play(first, "France: A par - bur")
    second = open_app(context, site.url)
    assert phase(second) == "F1901M"  # a fresh tab opens the game saved last
    second.click("#new-game")
    wait_phase(second, "S1901M")
    play(second, "England: F lon - nth")
    play(second, "England: F nth - nwy")
    assert phase(second) == "W1901A"

    # The first tab, reloaded, still holds its own game (the second one wrote its own slot).
    first = reopen_app(first, site.url)
    assert phase(first) == "F1901M"

    # Both tabs on the same game: a move in one shows in the other, which says so.
    second.select_option("#recent-select", index=1)
    second.click("#recent-open")
    wait_phase(second, "F1901M")
    play(first, "France: A bur - bel")
    assert phase(first) == "W1901A"
    wait_phase(second, "W1901A")
    assert "changed in another tab" in second.inner_text("#message-text")
    assert second.evaluate("location.hash") == first.evaluate("location.hash")
    assert recorder.page_errors == []


def test_an_unreadable_autosave_too_large_to_copy_is_kept_and_offered_as_a_download(
    new_context: Any, site: Site
) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    huge = "standard." + "A" * 4_900_000  # not a game, and too large to copy within the storage quota
    first = page
    first.evaluate("save => localStorage.setItem('adjutant.autosave', save)", huge)
    # A fresh tab opens the autosave (a reloaded one, its own game). The tab that wrote it stays open until
    # then: closed at once, its renderer can be gone before a write this large has reached the browser.
    page = open_app(context, site.url)
    first.close()
    text = page.inner_text("#message-text")
    assert "no room for a copy" in text and "left where it was" in text
    assert page.evaluate("localStorage.getItem('adjutant.autosave.unreadable')") is None
    with page.expect_download() as download:
        page.click("#message .message-action")
    assert Path(download.value.path()).read_text(encoding="utf-8") == huge
    # the new game is saved beside it: the only copy of the old save stays
    play(page, "France: A par - bur")
    assert page.evaluate("save => localStorage.getItem('adjutant.autosave') === save", huge)
    assert any("F1901M" in label for label in recent(page)) or phase(page) == "F1901M"
    assert recorder.page_errors == []


PASSPHRASES = {
    "gm": "game-master-passphrase",
    **{p: f"{p}-passphrase-17" for p in ["austria", "england", "france", "germany", "italy", "russia", "turkey"]},
}


def sealed_payload(fragment: str) -> dict[str, Any]:
    from adjutant_ui.sealed import decode_sealed_link

    assert fragment.startswith("cluster.s=3~")
    link = decode_sealed_link(fragment)
    return {"public": link.public, "sealed": link.sealed}


def test_the_game_masters_adjudication_is_saved_before_the_players_keys_are_ready(
    new_context: Any, site: Site
) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    open_new_cluster_dialog(page)
    for part, phrase in PASSPHRASES.items():
        page.fill(f"#passphrase-{part}", phrase)
    page.click("#passphrase-ok")
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=')", timeout=30_000)
    link = str(page.evaluate("location.hash")).lstrip("#")

    page = reopen_app(page, site.url + "#" + link)
    # The players' keys are derived after the game master's part opens (most of a second): here never.
    page.evaluate("() => { window.adjutantSeal.newKey = () => new Promise(() => {}); }")
    page.fill("#unlock-passphrase", PASSPHRASES["gm"])
    page.click("#unlock")
    page.wait_for_selector("#adjudicate:enabled", timeout=30_000)
    adjudicate(page)
    assert phase(page) == "F1901M"
    page.wait_for_function(
        "before => (localStorage.getItem('adjutant.autosave') || before) !== before", arg=link, timeout=10_000
    )
    saved = sealed_payload(str(page.evaluate("localStorage.getItem('adjutant.autosave')")))
    assert saved["public"]["phase"] == "F1901M" and list(saved["sealed"]) == ["gm"]
    assert recorder.page_errors == []


#: the keys made from passphrases are held until ``window.releaseKeys()``; ``window.keysMade`` counts them
HOLD_KEYS = """() => { const made = window.adjutantSeal.newKey; let release;
  const gate = new Promise(resolve => { release = resolve; });
  window.releaseKeys = release; window.keysMade = 0;
  window.adjutantSeal.newKey = (...args) => gate.then(() => made(...args)).then(k => { window.keysMade++; return k; });
}"""


def test_a_new_game_taken_while_a_cluster_games_keys_are_made_is_left_alone_by_them(
    new_context: Any, site: Site
) -> None:
    """A game master starts a Cluster game and, before its keys are made from the passphrases, starts a
    Standard one, saying yes to replacing the Cluster game not yet saved: once the keys are made, the
    Standard game keeps its own link and no message is given about sealing the game it replaced."""
    context, recorder = new_context()
    page = open_app(context, site.url)
    page.evaluate(HOLD_KEYS)
    open_new_cluster_dialog(page)
    for part, phrase in PASSPHRASES.items():
        page.fill(f"#passphrase-{part}", phrase)
    page.click("#passphrase-ok")
    page.wait_for_selector("#map[data-variant='cluster']", state="attached", timeout=30_000)
    page.once("dialog", lambda dialog: dialog.accept())  # yes, replace the Cluster game not yet saved
    page.select_option("#game-kind", "sandbox")
    page.select_option("#variant-select", "standard")
    page.click("#new-game")
    page.wait_for_selector("#map[data-variant='standard']", state="attached", timeout=30_000)
    standard = str(page.evaluate("location.hash"))
    assert standard.startswith("#standard.")
    page.evaluate("window.releaseKeys()")
    page.wait_for_function(f"() => window.keysMade === {len(PASSPHRASES)}", timeout=30_000)
    page.wait_for_timeout(500)  # (the seals that would follow the keys)
    assert "sealed" not in page.inner_text("#message-text")
    assert phase(page) == "S1901M"
    assert page.evaluate("location.hash") == standard
    assert recorder.page_errors == []


#: every seal from here on waits for ``window.refuseSeals()``, then fails, until ``window.restoreSeals()``;
#: ``window.sealsAsked`` and ``window.sealsRefused`` count them
REFUSE_SEALS = """() => { let release; const seal = window.adjutantSeal.seal;
  const gate = new Promise(resolve => { release = resolve; });
  window.restoreSeals = () => { window.adjutantSeal.seal = seal; };
  window.refuseSeals = release; window.sealsAsked = 0; window.sealsRefused = 0;
  window.adjutantSeal.seal = () => { window.sealsAsked++;
    return gate.then(() => { window.sealsRefused++; throw new Error('refused by the test'); }); };
}"""


def refused_while(page: Any, replace: bool) -> str:
    """Seals are held from now on; the game in hand is adjudicated (a change it seals); once its seal is
    asked for, with ``replace``, a Standard game is started; then the seals fail. The message shown once
    the page has answered (the refusal said, when the game is still in hand)."""
    page.evaluate(REFUSE_SEALS)
    adjudicate(page)
    page.wait_for_function("() => window.sealsAsked > 0", timeout=10_000)
    if replace:
        page.select_option("#game-kind", "sandbox")
        new_game(page, "standard")
    page.evaluate("window.refuseSeals()")
    page.wait_for_function("() => window.sealsRefused > 0", timeout=10_000)
    if not replace:
        page.wait_for_function(
            "() => document.getElementById('message-text').textContent.includes('refused by the test')",
            timeout=10_000,
        )
    page.wait_for_timeout(300)  # (the page's answer to the refusal, which says nothing over another game)
    page.evaluate("window.restoreSeals()")
    return page.inner_text("#message-text") if page.locator("#message").is_visible() else ""


def test_a_seal_that_fails_is_said_only_while_its_game_is_in_hand(new_context: Any, site: Site) -> None:
    """A game master's game whose seal fails says so while it is in hand; a seal that fails after the game
    was replaced says nothing over the game that replaced it, a Cluster group game's as a Sandbox one's."""
    context, recorder = new_context()
    page = open_app(context, site.url)
    page.on("dialog", lambda dialog: dialog.accept())  # yes, replace a game whose seal is pending
    for start in (new_cluster_game, start_cluster_group_game):
        start(page)
        assert "could not be sealed: Error: refused by the test" in refused_while(page, replace=False)
        page.click("#message-close")
        start(page)
        assert "sealed" not in refused_while(page, replace=True)
        assert phase(page) == "S1901M" and str(page.evaluate("location.hash")).startswith("#standard.")
    assert recorder.page_errors == []


#: the phase of the snapshot for the next start's first paint, as the page wrote it
SNAPSHOT = """() => { const s = JSON.parse(localStorage.getItem('adjutant.snapshot') || 'null');
  return s && s.phase; }"""


def test_the_snapshot_follows_the_position_and_is_written_again_over_another_tabs(new_context: Any, site: Site) -> None:
    """An order leaves the position and its snapshot as they were (the page does not make it again); an
    adjudication writes the new position's, and a snapshot another tab wrote meanwhile is written over at
    the next save."""
    context, recorder = new_context()
    page = open_app(context, site.url)
    # (the start's snapshot is made in idle moments after its link is stored)
    page.wait_for_function(f"() => ({SNAPSHOT})() === 'S1901M'", timeout=10_000)
    written = page.evaluate("localStorage.getItem('adjutant.snapshot')")
    page.fill("#orders-text", "A Par - Bur")
    page.click("#orders-apply")
    autosaved(page)
    page.wait_for_timeout(300)  # (idle moments in which a snapshot made again would be written)
    assert page.evaluate("localStorage.getItem('adjutant.snapshot')") == written
    page.evaluate("localStorage.setItem('adjutant.snapshot', 'another tab')")
    page.fill("#orders-text", "A Mar - Spa")
    page.click("#orders-apply")
    autosaved(page)
    page.wait_for_function("() => localStorage.getItem('adjutant.snapshot') !== 'another tab'", timeout=10_000)
    assert page.evaluate("localStorage.getItem('adjutant.snapshot')") == written
    adjudicate(page)
    wait_phase(page, "F1901M")
    autosaved(page)
    page.wait_for_function(f"() => ({SNAPSHOT})() === 'F1901M'", timeout=10_000)
    assert recorder.page_errors == []
