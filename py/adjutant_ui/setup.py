"""The page's "Set up a position": a game started from any position, set up by taps or clicks on the map
or typed in the notation ``adjutant setup`` takes (adjutant.setup), the two kept as two views of one
:class:`~adjutant.setup.Draft`; filled from the phase shown by "Start a new game from here"; and
"Report this adjudication", the phase shown as a DATC-style case text (adjutant.formats.casetext).

While a position is being set up, the map shows it and a tap, a click, or Enter on a place (the map's
keyboard stops: every province, reached as the order entry's are, by Tab and the arrow keys) does what the
tools under the map say: put a unit there or take it away, give a centre to a power, put a dislodged unit
there (with where its attacker came from), mark a stand-off. A change that would bring a problem (an army
at sea) is refused with the engine's words for it; the problems the position has are listed, as the
typed text's are. The game in hand is left as it is until "Start this game". A game with secrets
(Cluster) is set up as its game master sees it, with two more tools (a unit's strength, rule 1 checked; a
Site of the Ancients), and starts sealed once its passphrases are given, as a new one does.

What the player types is data: problems are listed as text, and a position refused leaves the game in
hand as it is."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import js
from adjutant import AdjutantError, Game, load_variant
from adjutant.adjudication.phases import Phase
from adjutant.errors import SetupError
from adjutant.formats.casetext import case_text
from adjutant.map.kinds import UnitType
from adjutant.map.variant import Variant, province_of
from adjutant.setup import Draft, read_settings, read_setup_text
from adjutant.variants.cluster import Aura, ClusterState, cluster_state, setup_settings
from pyodide.ffi import jsnull

from . import sealed
from .board import Board
from .page import Page
from .session import Session

#: the phases offered (season letter, kind letter) and their names
PHASES = (("S", "M", "Spring movement"), ("S", "R", "Spring retreats"), ("F", "M", "Fall movement"),
          ("F", "R", "Fall retreats"), ("W", "A", "Winter adjustments"))
#: what a tap on the map does, by the value of #setup-tool (the last two: Cluster's, the game master's)
TOOLS = ("unit", "centre", "dislodged", "standoff", "strength", "site")
#: a unit's strength after a tap on it with the strength tool (Cluster, rule 1): one, then 3, then 2 times
NEXT_STRENGTHS = {1: (3, 2, 1), 3: (2, 1), 2: (1,)}
#: the classes that make a province one of the set-up's map stops (web/app.css: not lit up as a target)
STOP = ("adj-target", "adj-quiet")


def _el(name: str) -> Any:
    return js.document.getElementById(name)


def _v(value: Any) -> Any:
    return None if value is None or value is jsnull else value


class SetupPanel:
    """The set-up's controls, wired once the page's Python is ready (:meth:`wire`), and the position being
    set up on the map (:attr:`draft`, None when the map shows the game in hand)."""

    def __init__(self, app: Page) -> None:
        self.app = app
        #: the position being set up on the map
        self.draft: Draft | None = None
        #: the text cannot be read as it stands: the map keeps what it last could, and takes no tap
        self.unreadable = False
        #: the provinces made map stops, and the accessible name each was last given
        self.stops: dict[str, str] = {}
        #: the variant the power list was filled for
        self.powers_of = ""
        #: a game with secrets set up, waiting for its passphrases (adjutant_ui.sealing takes it)
        self.pending: Game | None = None

    def wire(self) -> None:
        app = self.app
        for name, handler in (
            ("setup-from-here", self.on_from_here),
            ("setup-start", self.on_start),
            ("setup-start-map", self.on_start),
            ("report-case", self.on_report),
            ("setup-new", self.on_new),
            ("setup-leave", self.on_leave),
            ("setup-empty", self.on_empty),
        ):
            app.on(_el(name), "click", handler)
            _el(name).disabled = False
        app.on(_el("setup-text"), "input", self.on_text)
        app.on(_el("setup-phase"), "change", self.on_phase)
        app.on(_el("setup-year"), "change", self.on_phase)
        app.on(_el("setup-tool"), "change", lambda e: self._note(self._tool_hint()))
        app.on(_el("setup-choice"), "click", self.on_choice)

    # --- entering and leaving ------------------------------------------------------------------------
    def on_new(self, event: Any = None) -> None:
        """"Set up a position" beside New game: the variant chosen, at its start, to change."""
        try:
            variant = load_variant(str(_el("variant-select").value))
        except AdjutantError as e:
            self.app.message(str(e))
            return
        draft = Draft.of(Game.new(variant, seed=0).position, variant)
        draft.settings.pop("sites", None)  # (those of seed 0, which anyone can draw: the game draws its own)
        asyncio.ensure_future(self._enter(draft, focus=True))

    def on_from_here(self, event: Any = None) -> None:
        """Fill the position from the phase shown, to change and start from."""
        session = self.app.session
        if session is None:
            return
        game = session.game
        if sealed.has_secrets(game) and self.app.role != sealed.GM:  # (a view without the game master's secrets)
            self.app.message(f"Only the game master sets up a position of this {game.variant.name} game.", "info")
            return
        asyncio.ensure_future(self._enter(Draft.of(game.position_at(session.view), game.variant)))
        _el("setup-text").focus()

    async def _enter(self, draft: Draft, focus: bool = False, write: bool = True) -> None:
        """Set ``draft`` up on the map (its variant's map, loaded if the map shows another)."""
        app = self.app
        if app.session is not None:
            app.session.clear_selection()
        await self._map_of(draft.variant)
        self.draft = draft
        self.unreadable = False
        if write:
            self._write_text()
        _el("setup-tools").hidden = False
        _el("orders-panel").inert = True
        js.document.documentElement.dataset.settingUp = draft.variant.id
        self._fill_powers(draft.variant)
        secret = sealed.variant_has_secrets(draft.variant)
        for option in _el("setup-tool").options:
            if str(option.value) in TOOLS[4:]:
                option.hidden = option.disabled = not secret
        _el("setup-tool").value = "unit"
        self._note(self._tool_hint())
        app.keyboard.map_focus = None
        app.render()
        if focus:
            _el("setup-tools").scrollIntoView()
            _el("setup-tool").focus()

    async def _map_of(self, variant: Variant) -> None:
        """The map shows ``variant``'s (app.board drawn over it)."""
        app = self.app
        if app.board is not None and app.board.variant.id == variant.id:
            return
        self._drop_stops()
        svg = await js.window.adjutantShell.loadMap(variant.id)
        app.board = Board(svg, variant)

    def on_leave(self, event: Any = None) -> None:
        """Back to the game in hand, as it was."""
        session = self.app.session
        self.on_show()
        if session is not None:
            asyncio.ensure_future(self._back(session.game.variant))

    async def _back(self, variant: Variant) -> None:
        await self._map_of(variant)
        self.app.render()
        _el("setup-new").focus()

    def on_show(self) -> None:
        """Another game is shown (or the game in hand again): the map is no longer the set-up's."""
        self._drop_stops()
        self.draft = None
        self.unreadable = False
        _el("setup-tools").hidden = True
        _el("setup-choice").replaceChildren()
        _el("orders-panel").inert = False
        js.document.documentElement.removeAttribute("data-setting-up")

    # --- the map -------------------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the position being set up, and make every province a map stop that says what is there."""
        app, draft, board = self.app, self.draft, self.app.board
        if draft is None or board is None:
            return
        position, problems = draft.checked()
        state = cluster_state(position.variant_state)
        strengths = {p: str(level) for p, level in state.strengths().items()} if state is not None else {}
        sites = self._sites(draft)
        if state is None:
            board.draw(position, [], None, [], set())
        else:  # the game master's view: every strength, and the sites set up (none drawn yet: the seed is secret)
            board.draw(position, [], None, [], set(), sites, strengths)
        self._stops(board, draft, strengths, sites)
        app.keyboard.rove()
        for name in ("hist-first", "hist-prev", "hist-next", "hist-last"):
            _el(name).disabled = True
        _el("phase-label").textContent = f"Setting up: {position.phase.title}"
        problems = problems if not self.unreadable else []
        if self.unreadable:
            status = "The text has problems (listed under Set up a position): correct them there."
        elif problems:
            status = (f"{len(problems)} problem{'s' if len(problems) > 1 else ''} before it can start: "
                      f"{problems[0]}{' …' if len(problems) > 1 else ''}")
        else:
            status = "Ready to start."
        _el("setup-status").textContent = status
        _el("setup-start-map").disabled = bool(problems) or self.unreadable

    def _stops(self, board: Board, draft: Draft, strengths: dict[str, str], sites: dict[str, int]) -> None:
        svg = board.svg
        for prov, p in draft.variant.provinces.items():
            if p.type == "impassable":
                continue
            label = self._label(draft, prov, strengths, sites)
            if self.stops.get(prov) == label:
                continue
            element = _v(svg.querySelector(f'[id="{prov}"]'))
            if element is None:
                continue
            if prov not in self.stops:
                element.classList.add(*STOP)
                element.setAttribute("role", "button")
                element.setAttribute("tabindex", "-1")
            element.setAttribute("aria-label", label)
            self.stops[prov] = label

    def _drop_stops(self) -> None:
        board = self.app.board
        if board is not None:
            for prov in self.stops:
                element = _v(board.svg.querySelector(f'[id="{prov}"]'))
                if element is not None:
                    element.classList.remove(*STOP)
                    for name in ("tabindex", "role", "aria-label"):
                        element.removeAttribute(name)
        self.stops = {}

    @staticmethod
    def _label(draft: Draft, prov: str, strengths: dict[str, str], sites: dict[str, int]) -> str:
        """A province's accessible name while setting up: its name, what stands there, who owns it (and in
        Cluster, the game master's, the unit's strength and the site)."""
        v = draft.variant
        parts = [v.provinces[prov].name]
        for unit, how in ((draft.unit_at(prov), ""), (draft.dislodged_at(prov), "dislodged ")):
            if unit is not None:
                parts.append(f"{how}{_unit_name(v, unit.power, unit.type, unit.location)}")
        if v.provinces[prov].centre:
            owner = draft.centres.get(prov)
            parts.append(f"centre of {v.powers[owner].name}" if owner in v.powers else "centre, no owner")
        if prov in strengths:
            parts.append(f"{strengths[prov]} times")
        if prov in sites:
            parts.append(f"site of level {sites[prov]}")
        return ", ".join(parts)

    @staticmethod
    def _sites(draft: Draft) -> dict[str, int]:
        """The Sites of the Ancients set up by hand (none: they are drawn, secretly, when the game starts)."""
        sites: dict[str, int] = {}
        for group in draft.settings.get("sites", "").split(";"):
            level, _, places = group.partition(":")
            for place in places.split(","):
                prov = draft.variant.lookup(place.strip()) if place.strip() else None
                if prov is not None and level.strip().isdigit():
                    sites[prov] = int(level)
        return sites

    def click(self, location: str) -> None:
        """A tap, a click or Enter on ``location`` while setting up: what the tools say."""
        draft = self.draft
        if draft is None:
            return
        _el("setup-choice").replaceChildren()
        if self.unreadable:
            self._note("The text under Set up a position has problems: correct them there first (the map shows "
                       "the position as it last could be read).")
            return
        v = draft.variant
        province = province_of(location)
        if province not in v.provinces:
            return
        tool = str(_el("setup-tool").value)
        power = str(_el("setup-power").value)
        unit_type: UnitType = "F" if bool(_el("setup-fleet").checked) else "A"
        name = v.provinces[province].name
        if tool == "centre":
            owner = draft.centres.get(province)
            given = None if owner == power else power
            problem = draft.own(province, given)
            self._changed(problem or (f"{name}: {v.powers[given].name}'s centre" if given else f"{name}: no owner"))
            return
        if tool in ("strength", "site"):
            self._cluster_click(draft, tool, province)
            return
        if tool == "standoff":
            draft.toggle_standoff(province)
            marked = province in draft.standoffs
            self._changed(f"a stand-off in {name}" if marked else f"no stand-off in {name}")
            return
        here = draft.dislodged_at(province) if tool == "dislodged" else draft.unit_at(province)
        if (here is not None and here.power == power and here.type == unit_type
                and (location == province or here.location == location)):
            if tool == "dislodged":
                draft.remove_dislodged(province)
            else:
                draft.remove(province)
            self._changed(f"{_unit_name(v, here.power, here.type, here.location)} taken away from {name}")
            return
        if unit_type == "A":
            location = province
        elif location == province and v.provinces[province].coasts:
            self._offer(f"Which coast of {name}?", [
                (v.province_name(f"{province}/{c}"), f"coast {province}/{c}") for c in v.provinces[province].coasts])
            return
        if tool == "dislodged":
            self._ask_attacker(location)
            return
        problem = draft.place(power, unit_type, location)
        self._changed(problem or f"{_unit_name(v, power, unit_type, location)} put in {name}")

    def _cluster_click(self, draft: Draft, tool: str, province: str) -> None:
        """Cluster, the game master's: a unit's strength (one, 3, 2 times: rule 1 checked), or the level
        of the Site of the Ancients in the province (none, 1, 2, 3)."""
        v = draft.variant
        position = draft.position()
        state = cluster_state(position.variant_state)
        name = v.provinces[province].name
        if state is None:
            return
        if tool == "site":
            sites = self._sites(draft)
            level = sites.pop(province, 0) + 1
            if level <= 3:
                sites[province] = level
            text = "; ".join(f"{n}: {', '.join(sorted(p for p, lv in sites.items() if lv == n))}"
                             for n in (1, 2, 3) if n in sites.values())
            problem = draft.set_settings({**draft.settings, "sites": text} if text else
                                         {k: t for k, t in draft.settings.items() if k != "sites"})
            self._changed(problem or (f"a site of level {level} in {name}" if level <= 3 else f"no site in {name}"))
            return
        gone = {d.unit.province: d.unit for d in position.dislodged}
        unit = gone.get(province) or position.units.get(province)
        if unit is None:
            self._note(f"No unit stands in {name}: put one there first, then give it its strength.")
            return
        auras = state.retreating if province in gone else state.auras
        now = auras.get(province, Aura(1)).level
        refused = None
        for level in NEXT_STRENGTHS.get(now, (1,)):
            changed = dict(auras)
            if level == 1:
                changed.pop(province, None)
            else:
                changed[province] = Aura(level)
            made = replace_auras(state, changed, province in gone)
            own = setup_settings(v, made, position.units, gone)
            kept = {k: t for k, t in draft.settings.items() if k not in ("strengths", "deferred", "knowledge")}
            problem = draft.set_settings({**kept, **{k: t for k, t in own.items() if k != "sites"}})
            if problem is None and (level != now or refused is None):
                self._changed(f"{_unit_name(v, unit.power, unit.type, unit.location)} in {name}: "
                              + ("one strength" if level == 1 else f"{level} times"))
                return
            refused = refused or problem
        self._changed(refused or "")

    def take_game(self) -> Game:
        """The game with secrets set up, once its passphrases are given (adjutant_ui.sealing.Sealing)."""
        game, self.pending = self.pending, None
        if game is None:
            raise AdjutantError("the position set up is gone: set it up again")
        return game

    def _ask_attacker(self, location: str) -> None:
        """A dislodged unit at ``location``: where did its attacker come from?"""
        draft = self.draft
        assert draft is not None
        v = draft.variant
        province = province_of(location)
        attacker = draft.unit_at(province)
        name = v.provinces[province].name
        if attacker is None:
            self._note(f"Put the unit that dislodged it in {name} first (the tool 'puts a unit there'), then the "
                       "dislodged unit.")
            return
        came = sorted((p for p in v.provinces if p != province and v.touches(p, province, attacker.type)),
                      key=lambda p: v.provinces[p].name)
        offers = [(v.provinces[p].name, f"from {location} {p}") for p in came]
        if attacker.type == "A":
            offers.append(("by convoy", f"from {location} -"))
        self._offer(f"Where did the attack on {name} come from?", offers)

    def _offer(self, question: str, offers: list[tuple[str, str]]) -> None:
        self._note(question)
        box = _el("setup-choice")
        for label, action in offers:
            button = js.document.createElement("button")
            button.type = "button"
            button.textContent = label
            button.dataset.setup = action
            box.appendChild(button)

    def on_choice(self, event: Any) -> None:
        """A coast, or where an attack came from, chosen."""
        button = _v(event.target.closest("button[data-setup]")) if hasattr(event.target, "closest") else None
        draft = self.draft
        if button is None or draft is None:
            return
        words = str(button.dataset.setup).split(" ")
        location = words[1]
        if words[0] == "coast":
            self.click(location)
        else:
            v = draft.variant
            power = str(_el("setup-power").value)
            unit_type: UnitType = "F" if bool(_el("setup-fleet").checked) else "A"
            came = None if words[2] == "-" else words[2]
            _el("setup-choice").replaceChildren()
            problem = draft.place_dislodged(power, unit_type, location, came)
            self._changed(problem or f"{_unit_name(v, power, unit_type, location)} dislodged from "
                          f"{v.provinces[province_of(location)].name}")
        if event.detail == 0:  # from the keyboard: back to the place on the map (or to the next choice)
            self.app.keyboard.focus_after_action(province_of(location))

    def _changed(self, note: str) -> None:
        self._note(note)
        self._write_text()
        self.app.render()

    def _note(self, text: str) -> None:
        _el("setup-note").textContent = text

    def _tool_hint(self) -> str:
        return {
            "unit": "A tap on a place puts the power's army or fleet there; a second tap takes it away.",
            "centre": "A tap on a supply centre gives it to the power; a second tap leaves it with no owner.",
            "dislodged": "First put the unit that dislodged it; then a tap here puts the power's dislodged unit "
                         "and asks where the attack came from.",
            "standoff": "A tap marks a stand-off (no retreat goes there); a second tap takes it away.",
            "strength": "A tap on a unit makes it 3 times, then 2 times, then one again (rule 1: each power one "
                        "of each).",
            "site": "A tap sets the province's Site of the Ancients: level 1, 2, 3, then none. Sites set by hand "
                    "replace those the game would draw.",
        }.get(str(_el("setup-tool").value), "")

    def _fill_powers(self, variant: Variant) -> None:
        if self.powers_of == variant.id:
            return
        self.powers_of = variant.id
        select = _el("setup-power")
        select.replaceChildren()
        for power in variant.powers.values():
            option = js.document.createElement("option")
            option.value = power.id
            option.textContent = power.name
            select.appendChild(option)

    # --- the text, the other view --------------------------------------------------------------------
    def _write_text(self) -> None:
        """The text says what the map shows; the phase controls too; the problems are listed."""
        draft = self.draft
        if draft is None:
            return
        _el("setup-text").value = f"adjutant setup {draft.variant.id}\n" + draft.text()
        self._phase_controls(draft.phase)
        self._problems(draft.problems())

    def _phase_controls(self, text: str) -> None:
        try:
            phase = Phase.parse(text)
        except AdjutantError:
            return
        _el("setup-phase").value = str(phase)[0] + str(phase)[-1]
        _el("setup-year").value = str(phase.year)

    def on_phase(self, event: Any = None) -> None:
        draft = self.draft
        if draft is None or self.unreadable:
            return
        kind = str(_el("setup-phase").value)
        year = str(_el("setup-year").value).strip()
        draft.phase = f"{kind[:1]}{year}{kind[1:]}"
        self._changed(f"the phase: {draft.phase}")

    def on_text(self, event: Any = None) -> None:
        """The text typed or pasted: the map shows it (as far as it can be read)."""
        text = str(_el("setup-text").value)
        try:
            variant = load_variant(read_settings(text).get("variant") or self._variant_id())
            draft = Draft.read(variant, text)
        except SetupError as e:
            self.unreadable = True
            self._problems(list(e.problems))
            self.app.render()
            return
        except AdjutantError as e:
            self.unreadable = True
            self._problems([str(e)])
            self.app.render()
            return
        if self.draft is None or self.draft.variant.id != variant.id:
            asyncio.ensure_future(self._enter_typed(draft))
            return
        self.draft = draft
        self.unreadable = False
        self._phase_controls(draft.phase)
        self._problems(draft.problems())
        self.app.render()

    async def _enter_typed(self, draft: Draft) -> None:
        await self._enter(draft, write=False)  # (the text stays as typed: the map is the other view)
        if self.draft is not None and self.draft.variant.id == draft.variant.id:
            self.on_text()  # what was typed while the map loaded

    def _variant_id(self) -> str:
        return self.draft.variant.id if self.draft is not None else str(_el("variant-select").value)

    # --- starting ------------------------------------------------------------------------------------
    def on_start(self, event: Any = None) -> None:
        text = str(_el("setup-text").value)
        try:
            variant = load_variant(read_settings(text).get("variant") or self._variant_id())
            secret = sealed.variant_has_secrets(variant)
            seed = int(js.window.adjutantSeal.randomSeed()) if secret else None
            game = read_setup_text(variant, text, seed)
        except SetupError as e:
            self._problems(list(e.problems))
            return
        except AdjutantError as e:
            self._problems([str(e)])
            return
        if not self.app.saving.may_replace():
            return
        self._problems([])
        if secret:  # sealed as a new game of its variant: its passphrases first, as New game asks them
            self.pending = game
            self.app.sealing.open_passphrases("setup", variant.id)
            return
        asyncio.ensure_future(self._start(Session(game)))

    async def _start(self, session: Session) -> None:
        app = self.app
        app.saving.replacing()
        await app.show(session)
        app.clear_message()
        app.changed()
        app.render()

    def _problems(self, problems: list[str]) -> None:
        listed = _el("setup-problems")
        listed.replaceChildren()
        for problem in problems:
            item = js.document.createElement("li")
            item.textContent = problem
            listed.appendChild(item)

    def on_empty(self, event: Any = None) -> None:
        draft = self.draft
        if draft is None:
            return
        draft.units, draft.centres, draft.dislodged, draft.standoffs = [], {}, [], []
        self.unreadable = False
        self._changed("The board is empty: no unit, no owner.")

    # --- the case text -------------------------------------------------------------------------------
    def on_report(self, event: Any = None) -> None:
        """The phase whose results are shown, as a case text to copy."""
        session = self.app.session
        box = _el("case-text")
        if session is None:
            return
        index = session.shown_record()
        if index is None or session.game.history[index].skipped:
            box.hidden = True
            self.app.message("No phase is adjudicated here yet: step to a phase after one to report it.", "info")
            return
        if self.app.role and self.app.role != sealed.GM and session.game.rules.keeps_secrets:
            self.app.message("Only the game master reports an adjudication of a game with secrets.", "info")
            return
        text = case_text(session.game, index)
        box.value = text
        box.hidden = False
        self.app.copy(text, "The case")


def _unit_name(v: Variant, power: str, unit_type: str, location: str) -> str:
    """A unit as the page names it beside its place: ``"Russian fleet (north coast)"``."""
    who = v.powers[power].adjective if power in v.powers else power
    coast = v.province_name(location)[len(v.provinces[province_of(location)].name):]
    return f"{who} {'fleet' if unit_type == 'F' else 'army'}{coast}"


def replace_auras(state: ClusterState, auras: dict[str, Aura], retreating: bool) -> ClusterState:
    """``state`` with the multiples on the board (or, ``retreating``, the dislodged ones) ``auras``."""
    return dataclasses.replace(state, retreating=auras) if retreating else dataclasses.replace(state, auras=auras)
