"""Hostile codes and game master's parts in the game master's page (issue 37, items 8 and 9).

Fake codes carrying a phase's clear header (which anyone may copy) are opened with Web Crypto at most
``MAX_OPEN_ATTEMPTS`` times a paste; the rest stay in the box, said so, and open with the next press. A
Cluster game master's part forged by someone with the players' link (sealed to the public key, as an
earlier Adjutant sealed it) is refused beside a key of today's form; a genuine link of that earlier form
opens, with a warning, and is sealed again today's way.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import group_tables
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group
from adjutant.variants import cluster as cluster_rules
from app_driver import Site, open_app
from group_driver import (
    PASSPHRASES,
    POWERS,
    cluster_gm_fragment,
    open_codes,
    rechecked,
    send,
    start_cluster_group_game,
    start_group_game,
    unlock,
)
from group_tables import Devices, open_link

#: the browsers the tests share: the game master's and a second one (group_tables.py)
shared_devices, devices = group_tables.shared_devices, group_tables.devices


def _fake(key: bytes, power: int) -> str:
    """A code with the phase's clear header, a valid curve point (the game master's own key) and noise."""
    header = group.Header(group.game_id(key), 0, power).pack()
    return group.CODE_PREFIX + group.b64(header + key + os.urandom(12 + 40))


def test_fake_codes_cost_a_bounded_number_of_attempts_and_the_rest_open_next(devices: Devices, site: Site) -> None:
    gm = devices.new_game("gm")
    link = group.read_group_link(start_group_game(gm, "standard"))
    player = devices.page("second", site.url + "#" + group.public_link(link.game, link.public_key, "italy"))
    code = send(player, ["A Rom - Apu"])
    fakes = [_fake(link.public_key, 0) for _ in range(group.MAX_OPEN_ATTEMPTS + 30)]
    log = open_codes(gm, "\n".join([*fakes, code]))
    refused = [line for line in log if line.startswith("rejected: ") and "does not open" in line]
    untried = [line for line in log if line.startswith("untried: ")]
    assert len(refused) == group.MAX_OPEN_ATTEMPTS and len(untried) == 31
    status = gm.inner_text("#codes-status")
    assert "31 not tried" in status and "press Open codes again" in status, status
    left = gm.input_value("#codes-text").split("\n")
    assert left == [*fakes[group.MAX_OPEN_ATTEMPTS :], code]
    log = open_codes(gm, gm.input_value("#codes-text"))
    assert any(line.startswith("kept: ") and "Italy: 1 order in" in line for line in log), log
    assert gm.input_value("#codes-text") == ""


def _forged_part(page: Any, link: cg.ClusterLink, seed: int, form: int) -> str:
    """A game master's part of another seed (the forger's sites and passphrases) whose public data is the
    link's: sealed to the public key (``form`` 0x81, as anyone can) or under a key of the forger's (0x82)."""
    game = cluster_views.new_game(seed)
    state = cluster_rules.cluster_state(game.position.variant_state)
    assert state is not None
    game.position = replace(game.position, variant_state=replace(state, game=link.public["cluster"]["game"]))
    plain = cg.gm_plaintext(game, {p: "forger's passphrase" for p in POWERS})
    args = [list(link.public_key), list(cg.gm_header(link.public_key, form)),
            list(cg.gm_additional_data(link.public_key, link.public, form)), list(plain)]
    if form == cg.LEGACY_GM_PART_FORMAT:
        return str(page.evaluate("a => adjutantGroup.sealOrders(a[0], a[1], a[2], a[3])", args))
    return group.b64(cg.gm_header(link.public_key) + os.urandom(12) + plain + os.urandom(16))


def _with_part(fragment: str, part: str) -> str:
    parts = fragment.split("~")
    parts[-1] = part
    return rechecked("~".join(parts))


def test_a_forged_game_masters_part_is_refused_and_a_genuine_old_one_opens_once(
    devices: Devices, new_context: Any, site: Site
) -> None:
    gm = devices.new_game("gm")
    fragment = start_cluster_group_game(gm)
    link = cg.read_link(fragment)
    assert cg.gm_part_format(link.gm_part, link.public_key) == cg.GM_PART_FORMAT
    for form, said in ((cg.LEGACY_GM_PART_FORMAT, "someone other than the game master put it"),
                       (cg.GM_PART_FORMAT, "does not open")):
        page = devices.page("second", site.url + "#" + _with_part(fragment, _forged_part(gm, link, 99, form)))
        message = unlock(page, PASSPHRASES["gm"])
        assert "could not be opened" in message and said in message, message
        assert "Nothing has changed" in message

    # a game master's link as an earlier Adjutant made it: the key's scalar alone, the part sealed to the key
    made = gm.evaluate(
        """async phrase => {
          const pair = await crypto.subtle.generateKey({name: 'ECDH', namedCurve: 'P-256'}, true, ['deriveBits']);
          const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
          const d = (await crypto.subtle.exportKey('jwk', pair.privateKey)).d.replace(/-/g, '+').replace(/_/g, '/');
          const scalar = Uint8Array.from(atob(d + '='.repeat((4 - d.length % 4) % 4)), c => c.charCodeAt(0));
          const sealed = await adjutantSeal.seal(await adjutantSeal.newKey(phrase), 'group-gm', scalar);
          return {key: Array.from(raw), sealed: sealed};
        }""",
        PASSPHRASES["gm"],
    )
    key = bytes(made["key"])
    game = cluster_views.new_game(7)
    public = cluster_views.public_data(game)
    plain = cg.gm_plaintext(game, {p: PASSPHRASES[p] for p in POWERS})
    args = [list(key), list(cg.gm_header(key, cg.LEGACY_GM_PART_FORMAT)),
            list(cg.gm_additional_data(key, public, cg.LEGACY_GM_PART_FORMAT)), list(plain)]
    part = str(gm.evaluate("a => adjutantGroup.sealOrders(a[0], a[1], a[2], a[3])", args))
    old = cg.gm_link("cluster", key, made["sealed"], group.Intake(0), cg.public_text(game), part)
    page = devices.page("second", site.url + "#" + old)
    message = unlock(page, PASSPHRASES["gm"])
    assert message.startswith("Unlocked") and "made by an earlier Adjutant" in message, message
    upgraded = cluster_gm_fragment(page, "#" + old)
    again = cg.read_link(upgraded)
    assert cg.gm_part_format(again.gm_part, key) == cg.GM_PART_FORMAT and again.sealed_private != made["sealed"]
    # the link sealed again opens with no warning; beside its key, a part of the earlier form is refused
    later, _ = new_context()  # (a browser that never saw the link of the earlier form)
    page = open_app(later, site.url + "#" + upgraded)
    message = unlock(page, PASSPHRASES["gm"])
    assert message.startswith("Unlocked") and "earlier Adjutant" not in message, message
    page = open_link(page, site.url + "#" + _with_part(upgraded, part))
    assert "someone other than the game master put it" in unlock(page, PASSPHRASES["gm"])
