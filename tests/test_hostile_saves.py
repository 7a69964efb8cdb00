"""The page's saved games (adjutant_ui.saves): one slot per game, the recent list, full or damaged storage."""

from __future__ import annotations

import json

from adjutant_ui.saves import (
    KEPT_PHASES,
    MAX_NOTES,
    MAX_TYPED,
    RECENT_KEY,
    SHOWN,
    CodesNotes,
    DictStorage,
    Draft,
    Saves,
    draft_key,
    new_id,
    read_draft,
    slot_key,
    write_draft,
)


def test_each_game_keeps_its_own_slot_and_the_list_puts_the_latest_first() -> None:
    saves = Saves(DictStorage())
    a, b = new_id(), new_id()
    assert a != b
    assert saves.save(a, "standard.AAA", "standard", "S1901M", "2026-11-24 17:00")
    assert saves.save(b, "loeb9.BBB", "loeb9", "S1901M", "2026-11-24 17:01")
    # a tab playing game a does not touch game b's slot
    assert saves.save(a, "standard.CCC", "standard", "F1901M", "2026-11-24 17:02")
    assert [s.id for s in saves.recent()] == [a, b]
    assert saves.load(a).link == "standard.CCC" and saves.load(b).link == "loeb9.BBB"  # type: ignore[union-attr]
    assert [s.id for s in saves.recent(but=a)] == [b]
    assert saves.find("loeb9.BBB") == b and saves.find("nothing") is None
    assert saves.load(b).label("Loeb9") == "Loeb9, S1901M (2026-11-24 17:01)"  # type: ignore[union-attr]


def test_a_group_games_later_phase_is_found_in_its_slot_and_an_earlier_one_is_not() -> None:
    saves = Saves(DictStorage())
    saves.save("p1", "standard.grp~K~spring", "standard", "S1901M", "d", "K.player", 0)
    saves.save("m1", "standard.gm~K~x", "standard", "S1901M", "d", "K.gm", 0)
    saves.save("s1", "standard.AAA", "standard", "S1901M", "d")
    assert saves.find_group("K.player", 1) == "p1" and saves.find_group("K.gm", 3) == "m1"
    assert saves.find_group("K.player", 0) == "p1"  # the same phase
    saves.save("p1", "standard.grp~K~fall", "standard", "F1901M", "d", "K.player", 1)
    assert saves.find_group("K.player", 0) is None  # an older link: a slot of its own
    assert saves.find_group("L.player", 5) is None
    assert saves.find_group("", 0) is None  # a game that is not a group game is found by its link only
    assert saves.load("s1").group == "" and saves.load("p1").phases == 1  # type: ignore[union-attr]
    assert saves.load("p1").label("Standard") == "Standard, group game as a player, F1901M (d)"  # type: ignore[union-attr]
    assert saves.load("m1").label("Standard") == "Standard, group game as game master, S1901M (d)"  # type: ignore[union-attr]
    # a slot whose group fields are damaged is read as an ordinary game's
    saves.storage.set(slot_key("p2"), json.dumps({"link": "l", "variant": "standard", "phase": "S1901M", "date": "d",
                                                  "group": "K.player", "n": -1}))
    saves.storage.set(slot_key("p3"), json.dumps({"link": "l", "variant": "standard", "phase": "S1901M", "date": "d",
                                                  "group": "K.player", "n": True}))
    assert saves.load("p2").group == "" and saves.load("p3").group == ""  # type: ignore[union-attr]


def test_a_full_storage_is_reported_not_ignored() -> None:
    storage = DictStorage(quota=200)
    saves = Saves(storage)
    assert saves.save("a1", "x" * 50, "standard", "S1901M", "d")
    assert not saves.save("b2", "y" * 300, "standard", "S1901M", "d")
    assert saves.load("b2") is None and saves.load("a1") is not None


def test_damaged_slots_and_lists_are_skipped() -> None:
    storage = DictStorage()
    saves = Saves(storage)
    saves.save("a1", "standard.A", "standard", "S1901M", "d")
    storage.data[slot_key("zz")] = "[" * 10_000
    storage.data[RECENT_KEY] = '["zz", "a1", 5, "../x", "' + "q" * 100 + '"]'
    assert [s.id for s in saves.recent()] == ["a1"]
    storage.data[RECENT_KEY] = "{not json"
    assert saves.recent() == [] and saves.find("standard.A") is None


def test_the_list_shows_a_bounded_number_but_every_slot_is_kept() -> None:
    saves = Saves(DictStorage())
    for n in range(SHOWN + 5):
        saves.save(f"g{n}", f"standard.{n}", "standard", "S1901M", "d")
    assert len(saves.recent()) == SHOWN and saves.recent()[0].id == f"g{SHOWN + 4}"
    assert saves.load("g0") is not None and len(saves.ids()) == SHOWN + 5


def test_a_draft_is_kept_per_game_and_power_for_its_phase_only() -> None:
    storage = DictStorage()
    spring = Draft("p1", ("F Lon - Nth",), "orders~abc", "Sealed 1 order")
    assert write_draft(storage, "g", "england", spring)
    assert read_draft(storage, "g", "england", "p1") == spring
    assert read_draft(storage, "g", "france", "p1") is None
    assert read_draft(storage, "h", "england", "p1") is None
    assert read_draft(storage, "g", "england", "p2") is None  # the next phase starts clean
    # viewing another phase without typing leaves the draft alone; orders taken back are kept so
    assert write_draft(storage, "g", "england", Draft("p2"))
    assert read_draft(storage, "g", "england", "p1") == spring
    assert write_draft(storage, "g", "england", Draft("p1"))
    assert read_draft(storage, "g", "england", "p1") == Draft("p1")
    # the next phase's draft is kept beside it, under the same key: one per game and power
    assert write_draft(storage, "g", "england", Draft("p2", ("A Par H",)))
    assert [k for k in storage.data if k.startswith(draft_key("g", ""))] == [draft_key("g", "england")]
    assert read_draft(storage, "g", "england", "p2") == Draft("p2", ("A Par H",))


def test_orders_sent_from_an_old_link_leave_the_current_phases_draft() -> None:
    storage = DictStorage()
    current = Draft("p2", ("F Nth - Hel",))
    assert write_draft(storage, "g", "england", current)
    # a code sealed in the earlier phase's link is that phase's draft, beside the current one
    old = Draft("p1", (), "orders~abc", "Sealed 0 orders")
    assert write_draft(storage, "g", "england", old)
    assert read_draft(storage, "g", "england", "p2") == current
    assert read_draft(storage, "g", "england", "p1") == old
    # the drafts of the last KEPT_PHASES phases written are kept, the oldest written goes
    for n in range(3, 3 + KEPT_PHASES - 1):
        assert write_draft(storage, "g", "england", Draft(f"p{n}", ("A Par H",)))
    assert read_draft(storage, "g", "england", "p2") is None
    assert read_draft(storage, "g", "england", "p1") == old


def test_a_draft_keeps_the_text_typed_and_not_yet_entered() -> None:
    storage = DictStorage()
    typing = Draft("p1", (), "", "", "A Lvp - Yor\nF Lon -")
    assert not typing.empty
    assert write_draft(storage, "g", "england", typing)
    assert read_draft(storage, "g", "england", "p1") == typing
    # a draft written before the box was kept (no "typed") still reads; a damaged one is not read
    storage.data[draft_key("g", "england")] = '{"phase":"p1","orders":["F Lon - Nth"],"code":"","note":""}'
    assert read_draft(storage, "g", "england", "p1") == Draft("p1", ("F Lon - Nth",))
    storage.data[draft_key("g", "england")] = '{"phase":"p1","orders":[],"code":"","note":"","typed":[1]}'
    assert read_draft(storage, "g", "england", "p1") is None
    # a huge box is kept cut to its first MAX_TYPED characters
    assert write_draft(storage, "g", "england", Draft("p1", typed="x" * (MAX_TYPED + 10)))
    assert read_draft(storage, "g", "england", "p1") == Draft("p1", typed="x" * MAX_TYPED)


def test_a_draft_keeps_the_orders_its_code_seals() -> None:
    storage = DictStorage()
    draft = Draft("p1", ("F Lon - Eng",), "orders~X", "note", "", ("F Lon - Nth",))
    assert write_draft(storage, "g", "england", draft)
    assert read_draft(storage, "g", "england", "p1") == draft
    # a draft kept without them (or with them damaged) reads as not knowing them
    storage.data[draft_key("g", "england")] = json.dumps(
        [{"phase": "p1", "orders": [], "code": "c", "note": "", "sealed": [1]}]
    )
    assert read_draft(storage, "g", "england", "p1").sealed is None  # type: ignore[union-attr]


def test_damaged_drafts_and_full_storage_keep_nothing_without_error() -> None:
    storage = DictStorage()
    for text in ("[" * 10_000, "{not json", '{"phase": "p1", "orders": [1], "code": "", "note": ""}',
                 '{"phase": "p1", "orders": [], "code": 5, "note": ""}', "x" * 300_000):
        storage.data[draft_key("g", "england")] = text
        assert read_draft(storage, "g", "england", "p1") is None
    full = DictStorage(quota=10)
    assert not write_draft(full, "g", "england", Draft("p1", ("F Lon - Nth",)))
    assert read_draft(full, "g", "england", "p1") is None


def test_a_saved_games_label_shows_no_text_direction_control_from_storage() -> None:
    storage = DictStorage()
    slot = {"link": "standard.A", "variant": "standard", "phase": "S1901M\u202e", "date": "\u2067d"}
    storage.data[slot_key("a1")] = json.dumps(slot)
    saved = Saves(storage).load("a1")
    assert saved is not None and saved.label("Standard") == "Standard, S1901M (d)"


def test_a_group_game_masters_notes_on_codes_are_kept_in_the_slot_for_their_phase() -> None:
    """The list of codes opened and the rows' refusals go with the game master's slot (not the link), and
    come back for the same phase only."""
    saves = Saves(DictStorage())
    notes = CodesNotes(2, (("aside", "orders~…abc refused, and France's orders in stay: damaged"),),
                       (("france", "the code does not open", False), ("germany", "earlier", True)))
    assert saves.save("g1", "standard.gm~x", "standard", "F1901M", "d", "tag.gm", 2, notes.to_data())
    saved = saves.load("g1")
    assert saved is not None and saved.link == "standard.gm~x"
    assert CodesNotes.from_data(saved.page, 2) == notes
    assert CodesNotes.from_data(saved.page, 3) is None  # another phase's notes are not shown
    # a slot of a game that is no group game keeps none
    assert saves.save("g2", "standard.AAA", "standard", "S1901M", "d", page=notes.to_data())
    assert saves.load("g2").page is None  # type: ignore[union-attr]


def test_damaged_or_hostile_notes_are_read_as_data_and_bounded() -> None:
    bidi = "\u202e"
    hostile = {"codes": {"n": 0, "log": [["kept", "ok" + bidi], ["<script>", "x"], ["kept", "x" * 5000], "odd",
                                          *[["same", f"line {i}"] for i in range(MAX_NOTES + 50)]],
                         "refused": [["france", "why", "yes"], [1, "why", False], ["italy", "why", True]]}}
    notes = CodesNotes.from_data(json.loads(json.dumps(hostile)), 0)
    assert notes is not None
    assert notes.log[0] == ("kept", "ok")  # no text-direction control; the unknown kind and the long line go
    assert all(kind in ("kept", "same") and len(text) < 100 for kind, text in notes.log)
    assert len(notes.log) <= MAX_NOTES
    assert notes.refused == (("italy", "why", True),)
    for damaged in (None, [], {"codes": []}, {"codes": {"n": "0", "log": [], "refused": []}},
                    {"codes": {"n": 0, "log": {}, "refused": []}}):
        assert CodesNotes.from_data(damaged, 0) is None
