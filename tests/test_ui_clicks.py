"""The page's order entry under CPython, as tables of click scripts: from a game, the places a player
clicks and the buttons pressed, and the orders, targets, selections and notes each step must give."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from adjutant.adjudication.orders import Build, Unit, format_order
from adjutant.game import Game, Position
from adjutant.group_play import cluster_views
from adjutant.legal import possible_orders
from adjutant.variants.cluster import mattermission_targets
from adjutant.variants.cluster_orders import Transfer
from adjutant_ui.session import Session
from session_games import (
    austria_builds_two,
    austria_removes_two,
    cluster_game_knowing,
    order_list,
    played,
    played_in,
    russia_builds,
)

# --- click scripts -----------------------------------------------------------------------------------
# A script is a game to start from and the steps a player takes on the page's Session, one string each,
# with what each step must give or leave behind. Actions:
#   "click par"                 a click on a place        "click bur -> A par - bur"   ... giving that order
#   "click spa -> ? spa/nc spa/sc"   ... giving no order, a coast to choose    "click mos -> -"   ... nothing
#   "build F -> ...", "take offer -> ...", "research -> ..."   the Build, offered-move and Research buttons
#   "choose support"            a kind of order's button (Session.mode)       "clear"   Cancel
#   "enter A par - bur", "enter as france ...", "enter"   orders typed (or the order the last step gave),
#                               which must be taken without a problem
# Checks, "VIEW = value", "VIEW has value" (a part of it), "VIEW lacks value", where VIEW is one of VIEWS:
#   "selected = par", "selected = -" (none), "targets = bre bur gas pic", "note has no unit in Burgundy",
#   "orders = A lvp - yor | F lon - nth" (the orders given, sorted), "choices = hold:Hold | support:Support"
# A Check step is a fact no view reads, a function of the session with the words a failure shows.


def _pairs(pairs: list[tuple[str, str]]) -> list[str]:
    return [f"{key}:{label}" for key, label in pairs]


# Each view: how it reads the session, and how its items are written when it is a list (None: a text).
VIEWS: dict[str, tuple[Callable[[Session], Any], str | None]] = {
    "selected": (lambda s: s.selected, None),
    "target": (lambda s: s.target, None),
    "into": (lambda s: s.into, None),
    "mode": (lambda s: s.mode, None),
    "note": (lambda s: s.note, None),
    "prompt": (lambda s: s.prompt(), None),
    "offer": (lambda s: s.offered_move(), None),
    "pending offer": (lambda s: s.offer, None),
    "withdrawn": (lambda s: s.withdrawn, None),
    "targets": (lambda s: s.targets(), " "),
    "orderable": (lambda s: sorted(s.orderable_units()), " "),
    "orders": (order_list, " | "),
    "choices": (lambda s: _pairs(s.unit_choices()), " | "),
    "cluster choices": (lambda s: _pairs(s.cluster_choices()), " | "),
    "build types": (lambda s: _pairs(s.build_types()), " | "),
}


@dataclass(frozen=True)
class Check:
    """A fact a script's step checks that no view reads: ``holds(session)`` must be true."""

    says: str
    holds: Callable[[Session], bool]


Step = str | Check


@dataclass(frozen=True)
class Script:
    """From ``before`` (a variant's id for a new game, or a function making the game), in the view of
    ``player`` (the sandbox if empty; ``readonly``: the public view), the ``steps`` in order; ``after``
    checks what the orders given make of the game, once the steps are done."""

    name: str
    before: str | Callable[[], Game]
    steps: tuple[Step, ...]
    player: str = ""
    readonly: bool = False
    after: Callable[[Session], None] | None = None


def _expected_click(text: str) -> tuple[str | None, list[str]]:
    """A click's or button's result as a step writes it: an order, "-" for nothing, "? a b" for coasts."""
    if text == "-":
        return None, []
    if text.startswith("? "):
        return None, text[2:].split()
    return text, []


def _expected_view(name: str, text: str) -> Any:
    separator = VIEWS[name][1]
    if separator is None:
        return None if text == "-" else text
    return [item.strip() for item in text.split(separator.strip() or None) if item.strip()]


def run_step(session: Session, step: Step, given: list[str | None]) -> None:
    """Take ``step`` on ``session``; ``given`` holds the order the last click or button gave."""
    if isinstance(step, Check):
        assert step.holds(session), step.says
        return
    for name in sorted(VIEWS, key=len, reverse=True):
        head, _, rest = step.partition(name + " ")
        op, _, value = rest.partition(" ")
        if head == "" and op in ("=", "has", "lacks"):
            seen, expected = VIEWS[name][0](session), _expected_view(name, value)
            if op == "=":
                assert seen == expected, (step, seen)
            elif VIEWS[name][1] is None:
                assert (expected in seen) == (op == "has"), (step, seen)
            else:
                assert all((item in seen) == (op == "has") for item in expected), (step, seen)
            return
    action, arrow, result = step.partition(" -> ")
    word, _, argument = action.partition(" ")
    if word == "choose":
        session.mode = argument
    elif word == "clear":
        session.clear_selection()
    elif word == "enter":
        power, text = session.player or None, argument
        if argument.startswith("as "):
            _, power, text = (argument + " ").split(" ", 2)
        order = text.strip() or (given[-1] if given else None)
        assert order is not None, f"{step}: no order was given to enter"
        assert session.enter_orders(order, power) == [], step
    else:
        if word == "click":
            got = session.click(argument)
        elif word == "build":
            got = session.build(argument)
        elif action == "take offer":
            got = session.take_offer()
        elif word == "research":
            got = (session.research(), [])
        else:
            raise ValueError(f"a script's step is not understood: {step!r}")
        given.append(got[0])
        if arrow:
            assert got == _expected_click(result), (step, got)


def run_script(script: Script) -> Session:
    game = Game.new(script.before) if isinstance(script.before, str) else script.before()
    session = Session(game, player=script.player, readonly=script.readonly)
    given: list[str | None] = []
    for number, step in enumerate(script.steps, 1):
        try:
            run_step(session, step, given)
        except AssertionError as failed:
            raise AssertionError(f"{script.name}, step {number} ({step}): {failed}") from None
    if script.after is not None:
        script.after(session)
    return session


# --- the games the scripts start from ----------------------------------------------------------------
def fleet_in_mid_atlantic() -> Game:
    """Spring 1902 (the year's other phases passed over), France's F Brest in the Mid-Atlantic Ocean."""
    game = Game.new("standard")
    game.add_orders("France: F bre - mao")
    game.adjudicate()
    game.adjudicate()  # autumn: no orders
    if game.phase.kind == "adjustment":
        game.adjudicate()
    return game


def england_in_north_sea_and_yorkshire() -> Game:
    return played("England: F lon - nth\nA lvp - yor")


def coast_running_with_army_in_tunis() -> Game:
    game = played_in("coast_running", "Italy: F nap - ion\nA rom - apu", "Italy: F ion C A apu - tun\nA apu - tun")
    while game.phase.kind != "movement":
        game.adjudicate()
    return game


def placed(variant: str, units: dict[str, Unit]) -> Callable[[], Game]:
    """A new game of ``variant`` with only ``units`` on the map."""

    def game() -> Game:
        new = Game.new(variant)
        new.position = Position(new.phase, dict(units), dict(new.position.centres))
        return new

    return game


def two_powers_build() -> Game:
    """Winter 1901: Austria owed 2 builds (Budapest, Trieste and Vienna empty), France 2 (Brest, Marseilles)."""
    game = played("Austria: A vie - gal\nF tri - alb\nA bud - ser\nFrance: A mar - spa\nF bre - mao",
                  "Austria: F alb - gre\nFrance: F mao - por")
    assert game.adjustments() == {"austria": 2, "france": 2}
    return game


def austria_removes_one() -> Game:
    game = played("Austria: F tri - alb", "Italy: A ven - tri")
    assert game.adjustments()["austria"] == -1
    return game


def transferee_in_munich() -> Game:
    """Fall 1901 of a Cluster game: France's triple A Par took over Germany's A Mun in spring (France knows
    Transfer); Munich has a level 1 site that France has found, so France may transfer its aura out."""
    from dataclasses import replace

    game = cluster_game_knowing("transfer")
    assert game.add_orders("France: A par TRA A mun") == []
    game.adjudicate()
    state = game.position.variant_state
    assert state is not None and state.transferees[0].host == "mun"
    state = replace(state, sites={**state.sites, "mun": 1}, found={"france": {"par": 2, "mun": 1}})
    game.position = replace(game.position, variant_state=state)
    return game


def transferee_seen_by(power: str) -> Callable[[], Game]:
    """:func:`transferee_in_munich` as ``power``'s player sees it in a group game."""

    def game() -> Game:
        master = transferee_in_munich()
        parts = cluster_views.secret_parts(master)
        return cluster_views.join_parts(cluster_views.public_data(master), [parts[power]])

    return game


# --- what the orders given make of the game (checked after a script's steps) --------------------------
def italy_runs_to_the_western_mediterranean(session: Session) -> None:
    assert session.can_protect(session.game.units["tun"])
    problems = session.game.add_orders("A tun P F ion - wes\nF ion - wes", "italy")
    assert [p for p in problems if not getattr(p, "kept", False)] == []
    session.game.adjudicate()
    assert session.game.units["wes"].type == "F"


def turkey_runs_to_bulgarias_south_coast(session: Session) -> None:
    assert "bul/sc" in session.run_targets(session.game.units["bla"])
    assert "bul/ec" not in session.run_targets(session.game.units["bla"])
    assert not [p for p in session.game.add_orders("A con P F bla - bul/sc\nF bla - bul/sc", "turkey")
                if not getattr(p, "kept", False)]
    session.game.adjudicate()
    assert session.game.units["bul"] == Unit("turkey", "F", "bul/sc")


def austria_keeps_bohemia(session: Session) -> None:
    session.game.adjudicate()
    assert sorted(u.location for u in session.game.units.values() if u.power == "austria") == ["boh"]


def the_sandbox_withdraws_by_click(session: Session) -> None:
    session.player = ""
    assert session.prompt().endswith("a build or removal given, to withdraw it.")


def russia_builds_in_arkangel(session: Session) -> None:
    assert session.game.all_orders() == {"russia": (Build("russia", "F", "ark"),)}


def france_transfers_out_to_berlin(session: Session) -> None:
    assert [format_order(o) for o in session.game.orders_of("france")] == ["A mun TRA A ber"]
    assert [s.kind for s in session.shapes() if s.at == "mun"] == ["transfer"]
    record = session.game.adjudicate()[0]
    assert next(r for r in record.results if r.unit == "A mun").reason == "transfer: took over A ber"


def _armies_but_paris(session: Session) -> bool:
    armies = sorted(u.location for u in session.game.units.values() if u.type == "A" and u.province != "par")
    return session.targets() == armies


def _the_transfers_out_offered(session: Session) -> bool:
    offered = [o for o in possible_orders(session.game, "mun") if isinstance(o, Transfer)]
    return session.targets() == sorted(o.target for o in offered)


def _mattermission_targets(session: Session) -> bool:
    return session.targets() == sorted(mattermission_targets(session.game.variant, "par", "A"))


ARMIES_BUT_PARIS = Check("the targets are every other army", _armies_but_paris)
TRANSFERS_OUT = Check("the targets are the engine's legal transfers out", _the_transfers_out_offered)
MATTERMISSION = Check("the targets are the engine's mattermission targets", _mattermission_targets)
REMOVALS_CHOSEN = ("Austria has chosen its 2 removals (A Bohemia, F Albania): click one of those units to keep it "
                   "instead.")
ONE_REMOVAL_CHOSEN = "Austria has chosen its 1 removal (F Albania): click that unit to keep it instead."
BUILDS_USED = "Austria has used its 2 builds (A Budapest, F Trieste): click a build given to withdraw it."

SCRIPTS = [
    # --- moves, supports and convoys ---
    Script("a unit then a target moves it", "standard", (
        "click par -> -", "selected = par", "targets = bre bur gas pic", "click bur -> A par - bur", "selected = -")),
    Script("the unit again holds, a place it cannot reach does nothing", "standard", (
        "click mar", "click mos -> -", "selected = mar", "click mar -> A mar hold")),
    Script("a split-coast destination offers both coasts", fleet_in_mid_atlantic, (
        "click mao", "targets has spa/nc spa/sc", "click spa -> ? spa/nc spa/sc", "click spa/sc -> F mao - spa/sc")),
    Script("support: the supported unit, then its destination", "standard", (
        "click mar", "choose support", "targets has par", "click par", "target = par", "targets has bur gas",
        "click bur -> A mar S A par - bur")),
    Script("support of a fleet, and support to hold", "standard", (
        "click lon", "choose support", "targets = bre edi lvp", "click edi", "targets = nth yor",
        "click nth -> F lon S F edi - nth",
        "click kie", "choose support", "click ber", "targets has ber", "click ber -> F kie S A ber")),
    Script("convoy: the army, then its destination", england_in_north_sea_and_yorkshire, (
        "click nth", "choose convoy", "targets = yor", "click yor", "targets has nwy bel",
        "click nwy -> F nth C A yor - nwy")),
    Script("an army is offered convoyed destinations", england_in_north_sea_and_yorkshire, (
        "click yor", "targets has nwy")),  # (by the fleet in the North Sea)
    Script("another of the power's units is selected, another power's attacked", "standard", (
        "click par", "click bre -> -", "selected = bre",
        "click par", "selected = par",  # (Paris is next to Brest, but it holds a French unit)
        "clear", "click ven", "click tri -> A ven - tri")),
    Script("a click that does nothing says why", "standard", (
        "click bur -> -", "note has no unit in Burgundy", "click par", "click mun -> -", "selected = par",
        "note = A Paris cannot move to Munich: choose a highlighted place, click another French unit, or Cancel.",
        "click bur", "note = ")),
    Script("a click that does nothing in support says what was being ordered", "standard", (
        "click mar", "choose support", "click par", "click mun -> -",
        "note has A Marseilles cannot support A Paris into Munich")),
    Script("another of the power's units is selected at every step of an order", "standard", (
        "click bre", "choose convoy",  # (a fleet in a coastal province convoys no army: nothing is highlighted)
        "click par -> -", "selected = par", "mode = move",  # not an army Brest can convoy: A Paris is selected
        "choose support", "click mar", "target = mar",
        "click bre -> -", "selected = bre", "mode = move", "target = -",  # not one of Marseilles' destinations
        "click par", "choose support", "click mar", "click lon -> -", "selected = par",  # another power's unit
        "note has choose a highlighted place, click another French unit, or Cancel", "clear", "note = ")),
    # --- the buttons offered for a unit ---
    Script("a lone army only holds, a fleet at sea supports and convoys, on a coast only supports",
           placed("standard", {"par": Unit("france", "A", "par"), "nth": Unit("england", "F", "nth"),
                               "yor": Unit("england", "A", "yor"), "lon": Unit("england", "F", "lon")}), (
        "click par", "choices = hold:Hold", "clear",
        "click nth", "choices = hold:Hold | support:Support | convoy:Convoy", "clear",
        "click lon", "choices = hold:Hold | support:Support")),  # a fleet on a coast convoys nobody
    Script("protect is offered for an army a fleet could run past", "coast_running", (
        "click ven", "choices has protect:Protect", "clear",  # F Nap could run along Venice's coast
        "click lvp", "choices lacks protect:Protect")),  # a coastal army no fleet could run past
    Script("nothing selected, no buttons", "standard", ("choices = ",)),
    # --- the offered move into a province the power's own unit leaves ---
    Script("a move into a province the power's own unit leaves is offered", "standard", (
        "click vie", "click bud -> -", "selected = bud", "offer = Move A Vienna to Budapest instead",
        "take offer -> A vie - bud", "selected = -", "offer = ",
        "click par", "click mar", "selected = mar", "offer = ",  # Paris is not next to Marseilles: no offer
        "take offer -> -", "selected = mar",
        "clear", "click ber", "click kie", "offer = Move A Berlin to Kiel instead",  # it lasts in the move step
        "choose support", "offer = ", "choose move",
        "click den", "offer = ", "pending offer = -")),  # a move for F Kiel: the offer gone with the selection
    Script("an offered move into a two-coast province asks for the coast",
           lambda: played("France: F bre - mao\nA mar - spa"), (
        "click mao", "click spa", "selected = spa", "offer = Move F Mid-Atlantic Ocean to Spain instead",
        "take offer -> ? spa/nc spa/sc", "selected = mao", "click spa/sc -> F mao - spa/sc", "selected = -",
        "into = -",
        "click mao", "click spa/nc", "selected = spa")),  # the offer not taken: a click on Spain selects A Spain
    # --- Coast-Running's protect ---
    Script("coast running: protect by clicking, and the run", coast_running_with_army_in_tunis, (
        "click tun", "choose protect", "targets = ion", "click ion", "targets has wes",
        "click wes -> A tun P F ion - wes",
        "click ion", "targets has wes", "click wes -> F ion - wes"),  # the run is offered to the fleet
        after=italy_runs_to_the_western_mediterranean),
    Script("coast running: a run to the far coast of a province",
           placed("coast_running", {"bla": Unit("turkey", "F", "bla"), "con": Unit("turkey", "A", "con")}), (
        "click con", "choose protect", "click bla", "targets has bul/sc", "click bul/sc -> A con P F bla - bul/sc",
        "click bla", "click bul/sc -> F bla - bul/sc"),
        after=turkey_runs_to_bulgarias_south_coast),
    # --- builds and removals ---
    Script("a build by clicking", austria_builds_two, (
        "targets has vie tri", "click vie", "selected = vie", "build A -> Build A vie")),
    Script("a fleet built in a two-coast province asks for the coast", russia_builds, (
        "click stp", "selected = stp", "build F -> ? stp/nc stp/sc", "prompt has which coast",
        "click stp/nc -> Build F stp/nc", "enter Build F stp/nc", "orders = Build F stp/nc",
        "click stp/sc -> Build F stp/sc", "orders = ",  # a click on the other coast builds the fleet there
        "enter Build F stp/sc", "click stp/sc -> -", "orders = ",  # its own coast: taken back
        "note = The build of F St Petersburg (south coast) is withdrawn: Russia may build 2 units.",
        "enter Build F stp/sc", "click stp -> -", "orders = ",  # a click on the build given takes it back
        "click stp", "build A -> Build A stp")),  # the next builds anew (an army needs no coast)
    Script("an inland build place offers an army only", russia_builds, (
        "click mos", "selected = mos", "build types = A:Army",
        "prompt = Build an army in Moscow (a fleet is built only on a coast): choose Build Army.",
        "clear", "click stp", "build types = A:Army | F:Fleet",
        "prompt = Build what in St Petersburg? Choose Army or Fleet.")),
    Script("removals stop at the number due, a second click keeps the unit", austria_removes_two, (
        "prompt = Austria must remove 2 units: click one of your units to remove it.",
        "click boh", "enter",
        "prompt = Austria must remove 1 more unit: click one of your units to remove it, or one chosen to keep it.",
        "click alb", "enter", f"prompt = {REMOVALS_CHOSEN}", "click bud -> -", f"note = {REMOVALS_CHOSEN}",
        "orders = A boh D | F alb D", "click boh -> -", "withdrawn = A Bohemia",
        "note = A Bohemia is kept: Austria must remove 1 more unit.", "orders = F alb D",
        "click bud -> A bud disband", "withdrawn = ", "enter"),
        player="austria", after=austria_keeps_bohemia),
    Script("one removal kept back by a click is due again", austria_removes_one, (
        "click alb", "enter", f"prompt = {ONE_REMOVAL_CHOSEN}", "click vie -> -", f"note = {ONE_REMOVAL_CHOSEN}",
        "click alb", "note = F Albania is kept: Austria must remove 1 unit.",
        "prompt = Austria must remove 1 unit: click one of your units to remove it."),
        player="austria"),
    Script("builds stop at the number due, a build given is withdrawn by a click", austria_builds_two, (
        "click bud", "build A", "enter", "click tri", "build F", "enter", f"prompt = {BUILDS_USED}",
        "targets = bud tri",  # Vienna, still empty, is no choice now
        "click vie -> -", f"note = {BUILDS_USED}", "selected = -", "click bud -> -",
        "note = The build of A Budapest is withdrawn: Austria may build 1 more unit.",
        "orders = Build F tri", "targets = bud tri vie", "click vie", "build A -> Build A vie"),
        player="austria", after=the_sandbox_withdraws_by_click),
    Script("the game master builds at a build site that is no centre",  # Cline VI's Arkangel: Russia's
           lambda: played_in("cline6", "Russia: A ark - fin\nF sev - rum", "Russia: A fin - swe"), (
        Check("Russia has one build", lambda s: s.game.adjustments() == {"russia": 1}),
        "targets has ark", "click ark", "build F", "enter", "orders = Build F ark"),
        after=russia_builds_in_arkangel),
    # --- views of one player, and read-only views ---
    Script("a read-only view offers nothing to click", "standard", (
        "orderable = ", "targets = ", "click par -> -", "selected = -", "prompt has game master"),
        readonly=True),
    Script("a player's view orders only its own units", "standard", (
        "orderable = bre mar par", "prompt = Click or tap one of your units to order it.",
        "click lvp -> -", "selected = -",
        "note = The unit in Liverpool is England's, not yours: you order France's units.",
        "click par", "selected = par", "click bur -> A par - bur"),
        player="france"),
    Script("the sandbox offers every power's build places", two_powers_build, (
        "targets = bre bud mar tri vie", "prompt has a unit of a power that must remove one")),
    Script("a player's view offers only its own build places and says why not elsewhere", two_powers_build, (
        "targets = bud tri vie",
        "prompt = Austria may build 2 units: click one of your highlighted home centres to build.",
        "click mar -> -", "selected = -", "note has Austria cannot build in Marseilles",  # France's build place
        "click par -> -", "note = The unit in Paris is France's, not yours: you order Austria's units.",
        "click vie", "selected = vie", "build A -> Build A vie"),
        player="austria"),
    # --- Cluster's orders ---
    Script("cluster: research by clicking a unit", "cluster", ("click par", "research -> A par RES", "selected = -")),
    Script("no research outside cluster", "standard", ("click par", "research -> -")),
    Script("no cluster orders outside cluster", "standard", ("click par", "cluster choices = ", "research -> -")),
    Script("cluster: research only, knowing neither transfer nor mattermission", lambda: cluster_game_knowing(), (
        "click par", "cluster choices = research:Research")),
    Script("cluster: the engine's legal cluster orders, by click",
           lambda: cluster_game_knowing("transfer", "mattermission"), (
        "click mar", "cluster choices = research:Research",  # not on a site France has found: research only
        "clear", "click par",
        "cluster choices = research:Research | transfer:Transfer | mattermit:Mattermission",
        "choose transfer", ARMIES_BUT_PARIS,  # into any other army (the fleets are not Paris's type)
        "click lon -> -", "note has cannot transfer to the unit in London",
        "click bre -> -", "selected = bre",  # another French unit: selected
        "click par", "choose transfer", "click mun -> A par TRA A mun",
        "click par", "choose mattermit", MATTERMISSION, "targets has bel", "click bel -> A par MAT bel",
        "enter", "click par", "research -> A par RES")),
    Script("cluster: the transferee's power transfers its aura out of its host", transferee_in_munich, (
        "click mun", "choices has transfer-out:Transfer out (France)",
        "choices lacks transfer:Transfer",  # Germany's own A Mun knows no Transfer
        "choose transfer-out",
        "prompt = France's aura, hosted by A Munich, transfers out: click the unit it takes over (highlighted)",
        TRANSFERS_OUT, "targets has ber",
        "click lon -> -", "note has A Munich cannot transfer out to the unit in London",  # a fleet, England's
        "click ber -> France: A mun TRA A ber", "enter"),
        after=france_transfers_out_to_berlin),
    Script("cluster: the original unit, its aura away, only stands", transferee_in_munich, (
        "click par", "choices = hold:Hold", "targets = ", "prompt = A Paris cannot move: click it again to hold.")),
    Script("cluster: no aura in the host, nothing to transfer out", lambda: cluster_game_knowing("transfer"), (
        "click mun", "choices = hold:Hold | support:Support | research:Research")),
    Script("cluster: the transferee's power's view offers the transfer out", transferee_seen_by("france"), (
        "click mun", "choices has transfer-out:Transfer out (France)", "choose transfer-out", "click ber",
        "enter as france")),
    Script("cluster: the host's power's view offers no transfer out", transferee_seen_by("germany"), (
        "click mun", "choices = hold:Hold | support:Support | research:Research")),
]


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_a_click_script_gives_what_it_expects(script: Script) -> None:
    run_script(script)


def test_the_scripts_have_names_of_their_own() -> None:
    assert len({script.name for script in SCRIPTS}) == len(SCRIPTS)
