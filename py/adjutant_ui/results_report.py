"""A phase's results as the page writes them out: the sentences beside the map (the results drawn, for
screen readers and for anyone who prefers to read) and the judge-style text that Copy results copies.
Plain Python over the engine's records and the board's shapes, so CPython tests drive it through
:class:`adjutant_ui.session.Session`, which keeps what they make for the phase shown."""

from __future__ import annotations

from collections.abc import Mapping

from adjutant.formats.report import place_labels
from adjutant.game import Game, PhaseRecord
from adjutant.map.variant import Variant
from adjutant.pictures.scene import PhaseMarks, Shape


def result_sentences(variant: Variant, record: PhaseRecord | None, shapes: list[Shape], marks: PhaseMarks,
                     retreats: Mapping[str, list[str]], changed: Mapping[str, str],
                     centres: Mapping[str, str]) -> list[tuple[str, str]]:
    """The results drawn on the map as sentences, for screen readers and for anyone who prefers to read,
    each with the key of the symbols that draw it (the board's ``data-result``: ``order:<location>``,
    ``standoff:<province>``, ``dislodged:<location>``, ``centre:<province>``, ``adjust:<power>``; "" for
    the heading): ``record``'s orders (``shapes``, with their results; None on a game's first position),
    ``marks``' stand-offs, dislodgements and adjustments, where each dislodged unit may retreat
    (``retreats``), and the centres that changed hands (``changed``: province -> earlier owner; now owned
    as ``centres`` says)."""

    def name(location: str) -> str:
        return variant.province_name(location)

    def owner(power: str) -> str:
        return variant.powers[power].name if power in variant.powers else "no one"

    lines: list[tuple[str, str]] = []
    if record is not None:
        types = {r.unit.split(" ")[-1]: r.unit.split(" ")[0] for r in record.results if r.unit}

        def unit(location: str) -> str:
            """The unit that was ordered at ``location``, as players name it: "A Serbia"."""
            return f"{types[location]} {name(location)}" if location in types else name(location)

        lines.append((f"Results of {record.phase.title} ({record.phase}), drawn on the position they made.", ""))
        for s in shapes:
            key = f"order:{s.at}"
            if s.kind in ("move", "retreat") and s.success:
                verb = "moved" if s.kind == "move" else "retreated"
                lines.append((f"{owner(s.power)}: {unit(s.at)} {verb} to {name(s.to)}.", key))
            elif s.kind == "build" and s.success and s.at:
                lines.append((f"{owner(s.power)}: built in {name(s.at)}.", key))
            elif s.kind == "disband" and s.success:
                lines.append((f"{owner(s.power)}: {unit(s.at)} was disbanded.", key))
            elif s.kind == "mattermit" and s.success:
                lines.append((f"{owner(s.power)}: {unit(s.at)} was mattermitted to {name(s.to)}.", key))
            elif s.kind in ("research", "transfer") and s.success and s.reason:  # what it found or took
                lines.append((f"{owner(s.power)}: {unit(s.at)}, {s.reason}.", key))
            elif s.outcome == "cut":
                lines.append((f"{owner(s.power)}: the support from {unit(s.at)} was {s.reason}.", key))
            elif s.outcome == "bounced" and s.kind in ("move", "retreat"):
                lines.append((f"{owner(s.power)}: {unit(s.at)} bounced from {name(s.to)}.", key))
            elif s.success is False and s.outcome != "dislodged":
                # (a waive is the one order with no place: "Waive" for a power with nothing to adjust)
                what = f"the order of {unit(s.at)}" if s.at else "the waive"
                lines.append((f"{owner(s.power)}: {what} failed ({s.reason or 'failed'}).", key))
    for province, units in sorted(marks.standoffs.items()):
        lines.append((f"Stand-off in {name(province)} ({', '.join(name(u) for u in units)}).",
                      f"standoff:{province}"))
    for location, reason in sorted(marks.dislodged.items()):
        options = retreats.get(location)
        where = (f"; may retreat to {', '.join(name(o) for o in options)}" if options
                 else "; nowhere to retreat" if location in retreats else "")
        lines.append((f"The unit in {name(location)} was {reason or 'dislodged'}{where}.", f"dislodged:{location}"))
    for province, before in changed.items():
        now = centres.get(province, "")
        lines.append((f"{name(province)} changed hands: now {owner(now)}'s, was {owner(before)}'s.",
                      f"centre:{province}"))
    for power, delta in marks.adjustments.items():
        if delta > 0:
            where = ", ".join(name(p) for p in marks.build_sites.get(power, [])) or "nowhere free"
            lines.append((f"{owner(power)} builds {delta} (may build in {where}).", f"adjust:{power}"))
        else:
            lines.append((f"{owner(power)} removes {-delta}.", f"adjust:{power}"))
    return lines


def results_text(game: Game, index: int | None = None) -> str:
    """Judge-style results of ``game``'s history record ``index`` (the last one adjudicated by default),
    as the page shows and copies them: each power's orders with what failed and why."""
    history = game.history
    if not history:
        return "No phase adjudicated yet."
    if index is None:
        index = len(history) - 1
        while index > 0 and history[index].silent:
            index -= 1
    record = history[index]
    variant = game.variant
    lines = [f"Results for {record.phase.title} ({record.phase})", ""]
    by_power: dict[str, list[str]] = {}
    for r in record.results:
        power = variant.powers[r.power].name if r.power in variant.powers else r.power
        # (a power's builds left unused are a result with neither order nor unit)
        text = place_labels(variant, r.order or (f"{r.unit}: no order" if r.unit else "no order"))
        verdict = "" if r.success else "  (fails)"
        if r.reason:
            verdict = f"  ({'' if r.success else 'fails: '}{place_labels(variant, r.reason)})"
        if r.dislodged:
            verdict += "  dislodged"
        by_power.setdefault(power, []).append(f"  {text}{verdict}")
    for power in sorted(by_power):
        lines.append(f"{power}:")
        lines.extend(by_power[power])
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
