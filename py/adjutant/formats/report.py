"""Text reports in the traditional judge style: results for the e-mail, the position, orders due.

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> _ = g.add_orders("A Par - Bur; A Mar - Bur")
>>> lines = results(g.variant, g.adjudicate()[0]).splitlines()
>>> print(next(line for line in lines if "Marseilles" in line))
France: Army Marseilles -> Burgundy.  (*bounce*: bounced with A Par)
"""

from __future__ import annotations

import weakref

from ..adjudication.orders import UNIT_NAMES, Unit, describe, parse_order
from ..errors import AdjutantError
from ..game import Game, PhaseRecord, Result
from ..map.kinds import PhaseKind, unit_type_of
from ..map.variant import Variant, province_of
from ..setup import setup_text

#: what may stand around a place in a text: "bounced with A par, A mun", "(A bur)"
_AROUND = "(),.;:"


def place_labels(v: Variant, text: str) -> str:
    """``text`` (an order, a result's reason) with each of its places written as players write them,
    the abbreviation capitalised: "A par - bur" -> "A Par - Bur", "dislodged by A tyr" -> "dislodged by
    A Tyr", "F stp/sc" -> "F Stp/sc". Any other word stays as it is.

    >>> from adjutant import load_variant
    >>> place_labels(load_variant("standard"), "bounced with A par, F stp/sc (void: no order)")
    'bounced with A Par, F Stp/sc (void: no order)'
    """
    # kept by variant and text: the page writes every order given and every result out again at each
    # click (its lists and results), and most texts come again (a variant's map never changes)
    known = LABELLED.get(v)
    if known is None:
        known = LABELLED[v] = {}
    found = known.get(text)
    if found is None:
        if len(known) >= MOST_LABELLED:
            known.clear()
        found = known[text] = labelled_afresh(v, text)
    return found


#: by variant, the texts :func:`place_labels` wrote out, at most :data:`MOST_LABELLED` of them
LABELLED: weakref.WeakKeyDictionary[Variant, dict[str, str]] = weakref.WeakKeyDictionary()
#: how many texts of one variant are kept before they are all let go
MOST_LABELLED = 4096


def labelled_afresh(v: Variant, text: str) -> str:
    """:func:`place_labels` worked out afresh, not kept (what the kept texts are checked against)."""
    words = []
    for word in text.split(" "):
        core = word.strip(_AROUND)
        if core and core[0].islower() and province_of(core) in v.provinces:
            start = word.index(core)
            word = f"{word[:start]}{core[:1].upper()}{core[1:]}{word[start + len(core):]}"
        words.append(word)
    return " ".join(words)


def _order_text(v: Variant, r: Result, kind: PhaseKind) -> str:
    if not r.order:
        if r.unit:
            t, loc = r.unit.split()
            name = f"{UNIT_NAMES[t].title()} {v.province_name(loc)}"
            return f"{name} HOLD (no order)." if not r.reason or r.reason.startswith("dislodged") else f"{name}."
        return ""
    units = {}
    if r.unit:
        t, loc = r.unit.split()
        units[loc.split("/")[0]] = Unit(r.power, unit_type_of(t), loc)
    try:
        order = parse_order(r.order, v, units, power=r.power, phase=kind, dislodged=units)
    except AdjutantError:  # a record from an older map: print it as written
        return r.order
    return describe(order, v)


def _note(v: Variant, r: Result) -> str:
    if r.success and not r.reason:
        return ""
    reason = place_labels(v, r.reason)
    if reason.startswith("illegal"):
        return f"  (*illegal*: {reason.removeprefix('illegal: ')})"
    if reason.startswith("bounced"):
        return f"  (*bounce*: {reason})"
    if reason.startswith("cut"):
        return f"  (*cut*: {reason})"
    if reason.startswith("dislodged"):
        return f"  (*dislodged*: {reason})"
    if ", dislodged" in reason:
        return f"  (*dislodged*: {reason})"
    if reason.startswith("void: "):
        return f"  (*void*: {reason.removeprefix('void: ')})"
    return f"  (*{reason}*)"


def results(v: Variant, record: PhaseRecord) -> str:
    """A phase's results, one line per order, grouped by power."""
    kind = {"movement": "Movement", "retreat": "Retreat", "adjustment": "Adjustment"}[record.phase.kind]
    season = record.phase.season.title()
    lines = [f"{kind} results for {season} of {record.phase.year}. ({v.name})", ""]
    by_power: dict[str, list[Result]] = {}
    for r in record.results:
        by_power.setdefault(r.power, []).append(r)
    for power in sorted(by_power, key=lambda p: v.powers[p].name):
        for r in sorted(by_power[power], key=lambda r: r.unit):
            text = _order_text(v, r, record.phase.kind)
            if text:
                lines.append(f"{v.powers[power].name}: {text}{_note(v, r)}")
            elif r.reason:
                lines.append(f"{v.powers[power].name}: {place_labels(v, r.reason)}.")
    dislodged = [r for r in record.results if r.dislodged]
    if dislodged:
        lines += ["", "The following units were dislodged:"]
        for r in dislodged:
            t, loc = r.unit.split()
            lines.append(f"The {v.powers[r.power].adjective} {UNIT_NAMES[t]} in {v.province_name(loc)}.")
    return "\n".join(lines) + "\n"


def show(game: Game, secrets: bool = False) -> str:
    """The position: phase, units, centres, and who still owes orders; the command that sets it up again
    (a game with secrets: with them only if ``secrets``)."""
    v = game.variant
    lines = [f"{v.name}: {game.phase.title} ({game.phase})"]
    if game.winner:
        lines.append(f"{v.powers[game.winner].name} has won with {game.centre_counts()[game.winner]} centres.")
    if game.draw:
        lines.append("Drawn between " + ", ".join(v.powers[p].name for p in game.draw) + ".")
    centres = game.centre_counts()
    units = game.unit_counts()
    lines.append("")
    for power in sorted(v.powers, key=lambda p: v.powers[p].name):
        mine = sorted(str(u) for u in game.units.values() if u.power == power)
        lines.append(
            f"{v.powers[power].name:12} {centres.get(power, 0):2} centres, {units[power]:2} units: {', '.join(mine)}"
        )
    if game.position.dislodged:
        lines += [
            "",
            "Dislodged: " + ", ".join(f"{v.powers[d.unit.power].adjective} {d.unit}" for d in game.position.dislodged),
        ]
    if game.phase.kind == "adjustment":
        adj = game.adjustments()
        if adj:
            lines += [""] + [
                f"{v.powers[p].name}: {'builds' if n > 0 else 'removes'} {abs(n)}" for p, n in sorted(adj.items())
            ]
    lines += ["", orders_status(game), "", setup_command(game, secrets)]
    return "\n".join(lines)


def setup_command(game: Game, secrets: bool = True) -> str:
    """The command that starts a game from the current position of ``game`` (``adjutant setup``, which
    also reads it whole from a file with ``--from``); of a game with secrets, without its variant's own
    settings (Cluster's strengths, sites and knowledge) unless ``secrets``."""
    settings = setup_text(game.position, game.variant).splitlines()
    rules = game.rules
    hidden = rules.keeps_secrets and not secrets
    if hidden:
        settings = [line for line in settings if line.split(" ")[0][2:] not in rules.setup_keys]
    return "To start a game from this position:\n" + f"adjutant setup {game.variant.id} GAME.json \\\n  " + (
        " \\\n  ".join(settings)
    ) + ("\n(the strengths, sites and knowledge are secret: adjutant show --secrets gives them)" if hidden else "")


def orders_status(game: Game) -> str:
    v = game.variant
    if game.over:
        return "The game is over."
    due = game.orders_due()
    given = sum(len(os) for os in game.all_orders().values())
    if not due:
        return f"{given} orders given; nothing more is due. Ready to adjudicate."
    owing = ", ".join(f"{v.powers[p].name} ({n})" for p, n in sorted(due.items()))
    return f"{given} orders given; still due: {owing}."


__all__ = ["orders_status", "place_labels", "results", "setup_command", "show"]
