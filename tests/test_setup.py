"""Setting up any position (adjutant.setup): every problem named, the notation read and written, and a
set-up game carried whole by its file and its link, played and shared as any game."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
from adjutant import AdjutantError, GameFileError, decode_link, dumps, encode_link, loads
from adjutant.adjudication.phases import retreat_options
from adjutant.errors import SetupError
from adjutant.formats.gamefile import from_data
from adjutant.formats.link import split_link
from adjutant.game import Game
from adjutant.group_play import codes as group
from adjutant.map.variant import available_variants
from adjutant.randomgame import random_orders
from adjutant.setup import Draft, Placed, read_setup_text, set_up, set_up_text, setup_text, start_of

VARIANTS = [vid for vid, _ in available_variants()]
KEY = b"\x04" + bytes(range(64))

#: a position, and the problem it must be refused with (a part of the message)
PROBLEMS = [
    ({"units": "England: A Nth"}, "England: A Nth: an army cannot stand at sea (North Sea)"),
    ({"units": "Germany: F Mun"}, "Germany: F Mun: a fleet cannot stand inland (Munich)"),
    ({"units": "Russia: F Stp"}, "a fleet in St Petersburg stands on one of its coasts: name it (stp/nc or stp/sc)"),
    ({"units": "England: F Lon/nc"}, "London has no coast 'nc' (it has no separate coasts)"),
    ({"units": "France: F Spa/ec"}, "Spain has no coast 'ec' (its coasts are nc, sc)"),
    ({"units": "Russia: A Stp/nc"}, "an army stands in St Petersburg, not on one of its coasts"),
    ({"units": "England: A Lon; France: F Lon"}, "two units in London: English A lon and French F lon"),
    ({"units": "England: A Xyz"}, "'Xyz' is not a province of Standard Diplomacy"),
    ({"units": "Atlantis: A Lon"}, "'Atlantis' is not a power of Standard Diplomacy"),
    ({"units": "A Lon"}, "it names no power"),
    ({"units": "England: Lon"}, "'Lon' is not a unit"),
    ({"centres": "Neutral: bel"}, "'Neutral' is not a power of Standard Diplomacy"),
    ({"centres": "England: bur"}, "Burgundy is not a supply centre"),
    ({"centres": "England: bel; France: bel"}, "Belgium is given two owners, England and France"),
    ({"phase": "S1899M"}, "S1899M is before Standard Diplomacy's first year, 1901"),
    ({"phase": "F1905X"}, "'F1905X' is not a phase"),
    ({"phase": "F1905R"}, "F1905R is a retreat phase, but no unit is dislodged"),
    ({"dislodged": "Germany: A Mun from Boh"}, "units are dislodged only in a retreat phase, not in Fall 1905"),
    ({"phase": "F1905R", "dislodged": "Germany: A Mun from Boh"}, "no unit stands in Munich, so none dislodged it"),
    (
        {"phase": "F1905R", "units": "Germany: A Mun", "dislodged": "Germany: A Mun from Boh"},
        "a power never dislodges its own unit",
    ),
    (
        {"phase": "F1905R", "units": "Austria: A Mun", "dislodged": "Germany: A Mun from Lon"},
        "could not have come from London",
    ),
    ({"phase": "F1905R", "units": "Austria: A Mun", "dislodged": "Germany: A Mun"}, "should say where its attacker"),
    ({"standoffs": "Boh"}, "a stand-off matters only in a retreat phase"),
]


def _setup(**given: str) -> Game:
    settings = {"phase": "F1905M", "units": "", "centres": "", **given}
    return set_up_text("standard", **settings)


@pytest.mark.parametrize(("given", "problem"), PROBLEMS)
def test_every_problem_is_named(given: dict[str, str], problem: str) -> None:
    with pytest.raises(SetupError) as refused:
        _setup(**given)
    assert any(problem in p for p in refused.value.problems), refused.value.problems
    assert problem in str(refused.value)


def test_every_problem_of_a_position_is_named_at_once() -> None:
    with pytest.raises(SetupError) as refused:
        _setup(phase="S1900M", units="England: A Nth, F Lvp; Germany: F Mun, A Lvp", centres="Italy: bur")
    assert len(refused.value.problems) == 5
    assert str(refused.value).startswith("the position has 5 problems: ")


def test_a_units_strength_is_not_a_setting_of_a_variant_without_them() -> None:
    with pytest.raises(SetupError, match="is not a power"):
        _setup(units="3: A Par")


def test_names_spellings_and_coasts_are_read_as_players_write_them() -> None:
    game = _setup(units="russia: fleet St Petersburg (north coast), A moscow; FRA: F spa/sc", centres="Russian: Stp")
    assert str(game.units["stp"]) == "F stp/nc" and str(game.units["spa"]) == "F spa/sc"
    assert game.units["mos"].power == "russia" and game.position.centres == {"stp": "russia"}


def test_a_retreat_phase_knows_where_the_attack_came_from() -> None:
    game = _setup(
        phase="F1905R",
        units="Austria: A Mun, A Tyr; Germany: A Ber",
        dislodged="Germany: A Mun from Boh",
        standoffs="Sil",
    )
    where = set(retreat_options(game.variant, game.position.dislodged[0], game.units, game.position.contested, "fall"))
    assert where == {"bur", "kie", "ruh"}  # not Bohemia (the attacker's), Silesia (a stand-off), Tyr, Ber (held)
    game.add_orders("Germany: A Mun - Kie")
    game.adjudicate()
    assert game.units["kie"].power == "germany" and str(game.phase) == "W1905A"


def test_a_convoyed_attacker_leaves_the_way_it_came_open() -> None:
    game = _setup(phase="S1905R", units="England: A Bel", dislodged="France: A Bel by convoy")
    d = game.position.dislodged[0]
    assert d.attacker_from is None
    assert "by convoy" in setup_text(game.position, game.variant)


def _positions(variant: str) -> list[Game]:
    """Set-up games of ``variant``, one of each kind of phase: positions a seeded random game goes through
    after its start, each set up from its notation (the first seed whose game comes to a retreat)."""
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.new(variant, seed=seed)
        out: dict[str, Game] = {}
        while len(out) < 3 and game.phase.year < game.variant.first_year + 10:
            if game.phase.kind not in out and game.history:
                out[game.phase.kind] = read_setup_text(variant, setup_text(game.position, game.variant), seed=seed)
            for order in random_orders(game, rng):
                game.add_order(order)
            game.adjudicate()
        if len(out) == 3:
            return list(out.values())
    raise AssertionError(f"no seeded game of {variant} came to a retreat")


@pytest.mark.parametrize("variant", VARIANTS)
def test_notation_file_and_link_round_trip_every_variant(variant: str) -> None:
    """A position's notation sets up the same position; the set-up game's file and link give it back, and
    it plays on, its history carried from the set-up position."""
    games = _positions(variant)
    assert {g.phase.kind for g in games} == {"movement", "retreat", "adjustment"}
    rng = random.Random(3)
    for game in games:
        assert start_of(game) is not None
        text = setup_text(game.position, game.variant)
        assert setup_text(read_setup_text(variant, text).position, game.variant) == text
        for _ in range(3):
            assert dumps(loads(dumps(game))) == dumps(game)
            if not game.rules.hidden_setup:
                assert dumps(decode_link(encode_link(game))) == dumps(game)
            for order in random_orders(game, rng):
                game.add_order(order)
            game.adjudicate()
        again = loads(dumps(game))
        assert setup_text(again.position_at(0), game.variant) == text
        assert len(again.history) == len(game.history)


def test_a_game_at_the_variants_start_writes_no_start() -> None:
    game = set_up_text("standard", "S1901M", *_start_notation())
    assert start_of(game) is None
    assert "start" not in json.loads(dumps(game)) and json.loads(dumps(game))["version"] == 1


def _start_notation() -> tuple[str, str]:
    text = setup_text(Game.new("standard").position, Game.new("standard").variant)
    lines = dict(line.split(" ", 1) for line in text.splitlines())
    return lines["--units"].strip('"'), lines["--centres"].strip('"')


def test_undo_goes_back_to_the_set_up_position_and_no_further() -> None:
    game = _setup(units="England: F Nth, A Yor", centres="England: lon")
    before = dumps(game)
    game.add_orders("England: F Nth - Nwy; A Yor - Lon")
    game.adjudicate()
    game.undo()
    game.clear_orders()
    assert dumps(game) == before
    with pytest.raises(AdjutantError, match="nothing to undo"):
        game.undo()


def _file_with_start(start: object) -> dict[str, object]:
    data = json.loads(dumps(_setup(units="England: F Nth", centres="England: lon")))
    data["start"] = start
    return data


HOSTILE_STARTS = [
    ("a list", [1, 2], "the starting position is not an object"),
    ("unknown keys", {"phase": "F1905M", "units": {}, "centres": {}, "evil": 1}, "'evil', which no position has"),
    ("no phase", {"units": {}, "centres": {}}, "has no phase"),
    ("a long phase", {"phase": "F" + "9" * 100 + "M"}, "has no phase"),
    ("units not by power", {"phase": "F1905M", "units": ["A lon"]}, "units are not an object of power"),
    ("a power unknown", {"phase": "F1905M", "units": {"atlantis": ["A lon"]}}, "'atlantis' is not a power"),
    ("a unit not text", {"phase": "F1905M", "units": {"england": [[["A lon"]]]}}, "are not a list of texts"),
    ("a unit misspelt", {"phase": "F1905M", "units": {"england": ["Army london"]}}, "is not a unit"),
    ("huge", {"phase": "F1905M", "units": {"england": ["A lon"] * 100_000}}, "more units than Standard"),
    ("an army at sea", {"phase": "F1905M", "units": {"england": ["A nth"]}}, "an army cannot stand at sea"),
    ("a year too late", {"phase": "F100000M", "units": {}, "centres": {}}, "'F100000M' is not a phase"),
    ("dislodged malformed", {"phase": "F1905R", "dislodged": [{"power": 1}]}, "not {power, unit, attacker_from}"),
    ("stand-offs malformed", {"phase": "F1905R", "contested": {"a": 1}}, "stand-offs are not a list"),
    ("centres of a province", {"phase": "F1905M", "centres": {"england": ["bur"]}}, "Burgundy is not a supply centre"),
    ("settings not texts", {"phase": "F1905M", "settings": {"strengths": [1]}}, "settings are not an object of texts"),
    ("a setting of another variant", {"phase": "F1905M", "settings": {"strengths": "England: 3 Lon"}},
     "--strengths: Standard Diplomacy has no such setting"),
]


@pytest.mark.parametrize(("name", "start", "message"), HOSTILE_STARTS, ids=[h[0] for h in HOSTILE_STARTS])
def test_a_hostile_starting_position_is_refused_by_name(name: str, start: object, message: str) -> None:
    data = _file_with_start(start)
    with pytest.raises(GameFileError) as refused:
        from_data(data)
    assert message in str(refused.value)
    assert str(refused.value).startswith(("the starting position", "history entry", "the file", "the units"))


def test_a_hostile_starting_position_in_a_link_is_refused_by_name() -> None:
    game = _setup(units="England: F Nth", centres="England: lon")
    payload = {"a": 2, "v": "standard", "n": 0, "p": {"phase": "F1905M", "units": {"england": ["A nth"]}}}
    raw = zlib.compress(json.dumps(payload).encode(), 9)[2:-4]
    link = "standard." + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    with pytest.raises(GameFileError, match="the link's starting position: .*an army cannot stand at sea"):
        decode_link(link)
    assert decode_link(encode_link(game)).units == game.units


def test_a_set_up_games_link_and_file_say_a_newer_version() -> None:
    """An older Adjutant, which would replay the history from the variant's start, refuses them by their
    version rather than as damaged."""
    game = _setup(units="England: F Nth", centres="England: lon")
    assert json.loads(dumps(game))["version"] == 3
    assert json.loads(dumps(Game.new("standard")))["version"] == 1
    assert _link_payload(encode_link(game))["a"] == 2
    assert _link_payload(encode_link(Game.new("standard")))["a"] == 1


def _link_payload(link: str) -> dict[str, object]:
    body = split_link(link)[1]
    raw = zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), -15)
    payload: dict[str, object] = json.loads(raw)
    return payload


def test_group_play_works_from_a_set_up_game() -> None:
    """The players' link carries the set-up position; a code is bound to it (another game at the same phase
    count has another digest), and the orders sent come back."""
    game = _setup(units="England: F Nth, A Yor; France: A Bur", centres="England: lon; France: par")
    public = group.read_group_link(group.public_link(game, KEY, "england"))
    assert public.game.units == game.units and str(public.game.phase) == "F1905M"
    assert group.phase_digest(public.game, KEY) == group.phase_digest(game, KEY)
    plain = Game.new("standard")
    assert group.phase_digest(plain, KEY) != group.phase_digest(game, KEY)
    orders = [game.parse("F Nth - Nwy", "england"), game.parse("A Yor - Lon", "england")]
    data = group.encode_orders(public.game, "england", orders)
    assert sorted(map(str, group.decode_orders(game, "england", data))) == sorted(map(str, orders))
    for order in orders:
        game.add_order(order)
    game.adjudicate()
    after = group.read_group_link(group.public_link(game, KEY))
    assert after.game.units == game.units and after.game.history == game.history


def test_set_up_from_structured_units() -> None:
    game = set_up("loeb9", "F1905M", [Placed("norway", "F", "nwg")], {})
    assert game.units["nwg"].power == "norway"
    with pytest.raises(SetupError, match="'zz' is not a power"):
        set_up("loeb9", "F1905M", [Placed("zz", "F", "nwg")], {})


def test_computer_players_play_a_set_up_game_and_its_link_keeps_both() -> None:
    from adjutant.bots import computer_orders

    game = _setup(units="England: F Nth, A Yor; France: A Bur, A Par", centres="England: lon; France: par")
    game.set_computer("france", "random", seed=3)
    again = decode_link(encode_link(game))
    assert again.computer == game.computer and again.units == game.units and start_of(again) is not None
    assert loads(dumps(game)).computer == game.computer
    orders = computer_orders(game)
    assert list(orders) == ["france"] and len(orders["france"]) == 2
    for order in orders["france"]:
        game.add_order(order)
    game.adjudicate()
    assert dumps(decode_link(encode_link(game))) == dumps(game)


def test_a_draft_changed_one_step_at_a_time_is_what_its_text_sets_up() -> None:
    """The page's map sets a position up one change at a time (adjutant.setup.Draft): a change that would
    bring a problem is refused with the engine's words, the rest is the notation's, read back the same."""
    draft = Draft.empty("loeb9", "F1905M")
    assert draft.place("norway", "A", "nwg") == "Norway: A Nwg: an army cannot stand at sea (Norwegian Sea)"
    assert draft.place("norway", "F", "nwg") is None and draft.place("russia", "F", "stp/sc") is None
    assert draft.place("russia", "F", "stp") is not None  # (no coast named)
    assert draft.place("england", "A", "nwg") is not None and draft.unit_at("nwg") == Placed("norway", "F", "nwg")
    assert draft.place("england", "F", "nwg") is None and draft.unit_at("nwg") == Placed("england", "F", "nwg")
    assert draft.own("nwy", "norway") is None and draft.own("nwg", "norway") == "Norwegian Sea is not a supply centre"
    assert draft.place_dislodged("norway", "F", "nwg", "nth") == (
        "units are dislodged only in a retreat phase, not in Fall 1905 movement")
    draft.phase = "F1905R"
    assert draft.place_dislodged("norway", "F", "nwg", "lon") is not None  # (London does not touch it)
    assert draft.place_dislodged("norway", "F", "nwg", "nth") is None and draft.problems() == []
    draft.toggle_standoff("bar")
    game = draft.game()
    assert setup_text(game.position, game.variant) == draft.text()
    again = Draft.read("loeb9", draft.text())
    assert again.text() == draft.text() and again.position() == draft.position()
    assert Draft.of(game.position, game.variant).text() == draft.text()
    draft.remove("nwg")  # the dislodging unit gone: the position has a problem, named as set_up names it
    with pytest.raises(SetupError) as refused:
        draft.game()
    assert list(refused.value.problems) == draft.problems() == [
        "the dislodged Norwegian F nwg: no unit stands in Norwegian Sea, so none dislodged it"]


def test_a_draft_read_from_text_keeps_a_problem_of_the_position_and_refuses_what_it_cannot_read() -> None:
    draft = Draft.read("standard", '--phase F1905M --units "England: A Nth, F Lon"')
    assert draft.problems() == ["England: A Nth: an army cannot stand at sea (North Sea)"]
    assert list(draft.position().units) == ["lon"]  # (drawn without the unit that has a problem)
    with pytest.raises(SetupError, match="'Xyz' is not a province"):
        Draft.read("standard", '--phase F1905M --units "England: A Xyz"')
    with pytest.raises(SetupError, match="not of 'standard'"):
        Draft.read("standard", "adjutant setup loeb9 --phase F1905M")


CLUSTER_SETTINGS = {
    "strengths": "France: 2 Bur, 3 Par revealed; Germany: 3 Mun",
    "deferred": "Germany: 2",
    "knowledge": "France: transfer, mattermission",
    "sites": "1: nwy; 2: bur, nth; 3: tys",
}


def _cluster(**settings: str) -> Game:
    return set_up_text("cluster", "F1905M", "France: A Bur, A Par; Germany: A Mun, A Ruh", "France: par",
                       settings={**CLUSTER_SETTINGS, **settings}, seed=4)


def test_a_cluster_set_up_carries_strengths_sites_and_knowledge_through_its_file() -> None:
    from adjutant.variants.cluster import Aura, cluster_state

    game = _cluster()
    state = cluster_state(game.position.variant_state)
    assert state is not None and state.started
    assert state.auras == {"bur": Aura(2), "par": Aura(3, True), "mun": Aura(3)}
    assert state.deferred == {"germany": (2,)} and state.knowledge == {"france": ("transfer", "mattermission")}
    assert state.sites == {"nwy": 1, "bur": 2, "nth": 2, "tys": 3}
    text = setup_text(game.position, game.variant)
    assert '--strengths "France: 2 Bur, 3 Par revealed; Germany: 3 Mun"' in text
    again = loads(dumps(game))
    assert setup_text(again.position, again.variant) == text
    assert cluster_state(again.position.variant_state) == state
    assert setup_text(read_setup_text("cluster", text, seed=9).position, game.variant) == text
    # the 2 times army in Burgundy takes Ruhr, held by a single army, without support (rule 3)
    game.add_orders("France: A Bur - Ruh\nGermany: A Ruh H")
    game.adjudicate()
    assert game.units["ruh"].power == "france" and [d.unit.location for d in game.position.dislodged] == ["ruh"]
    assert dumps(loads(dumps(game))) == dumps(game)


CLUSTER_PROBLEMS = [
    ({"strengths": "France: 3 Bur, 3 Par"}, "France has two 3 times units (Burgundy and Paris): rule 1"),
    ({"strengths": "France: 4 Par"}, "a unit's strength is 3 or 2 times, not 4 (rule 1)"),
    ({"strengths": "France: 3 Mun"}, "France: 3 Munich: no French unit stands in Munich"),
    ({"strengths": "France: 3 Par", "deferred": "France: 3"}, "France has two 3 times units (Paris and a later build)"),
    ({"knowledge": "France: alchemy"}, "'alchemy' is not what a power may know"),
    ({"sites": "4: par"}, "does not start with a site's level, 1, 2 or 3"),
    ({"sites": "1: swi"}, "no unit can go to Switzerland"),
    ({"sites": "1: par; 2: par"}, "two sites in Paris"),
]


@pytest.mark.parametrize(("settings", "problem"), CLUSTER_PROBLEMS)
def test_every_problem_of_a_cluster_set_up_is_named(settings: dict[str, str], problem: str) -> None:
    with pytest.raises(SetupError) as refused:
        _cluster(**{"strengths": "", "deferred": "", **settings})
    assert any(problem in p for p in refused.value.problems), refused.value.problems


def test_a_cluster_set_up_at_the_first_phase_without_strengths_opens_the_nominations() -> None:
    from adjutant.variants.cluster import cluster_state

    game = set_up_text("cluster", "S1901M", "France: A Par", "", seed=2)
    state = cluster_state(game.position.variant_state)
    assert state is not None and not state.started and state.auras == {}
    assert not [p for p in game.add_orders("France: Nominate 3 par") if not p.kept]
