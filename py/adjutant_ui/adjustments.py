"""An adjustment phase as click entry speaks of it: the builds and removals each power has given and still
has due, and what the page says of a click that would give one more, withdraw one, or reach another power's
unit. Plain functions of the game, which :class:`adjutant_ui.session.Session`'s clicks call."""

from __future__ import annotations

from adjutant.adjudication.orders import Build, Disband, Order, Waive, order_power
from adjutant.adjudication.phases import build_places
from adjutant.game import Game
from adjutant.map.variant import Variant, province_of


def adjustments_given(game: Game, power: str) -> list[Order]:
    """``power``'s builds (waives included) or removals given this adjustment phase, as given: the
    first as many as are due count."""
    kinds = (Build, Waive) if game.adjustments().get(power, 0) > 0 else (Disband,)
    return [o for o in game.orders_of(power) if isinstance(o, kinds)]


def named(variant: Variant, order: Order) -> str:
    """The unit a build or removal is for, as the prompts name units ("A Budapest"); "a build waived" for
    a waive."""
    if isinstance(order, Build):
        return f"{order.type} {variant.province_name(order.location)}"
    if isinstance(order, Disband):
        return f"{order.unit.type} {variant.province_name(order.unit.location)}"
    return "a build waived"


def withdraw(game: Game, order: Order) -> None:
    """Take ``order`` back from its power's orders in ``game``, the others kept as they were."""
    power = order_power(order)
    kept = [o for o in game.orders_of(power) if o is not order]
    game.clear_orders(power)
    for other in kept:
        game.add_order(other)


def build_texts(game: Game, power: str) -> list[str]:
    """Every build ``power`` may give this phase, as "A vie", "F stp/nc"."""
    return build_places(game.variant, power, game.units, game.position.centres)


def builds_in(game: Game, power: str, province: str) -> bool:
    """Whether ``power`` may build in ``province`` this phase."""
    return any(province_of(text.split()[1]) == province for text in build_texts(game, power))


def unit_count(count: int, more: str = "") -> str:
    """A count of units as the notes say it: "3 units", "1 more unit"."""
    return f"{count}{more} unit{'s' if count != 1 else ''}"


def still_due(game: Game, power: str) -> str:
    """What ``power`` still has to give this adjustment phase, said after a withdrawal."""
    name = game.variant.powers[power].name
    delta = game.adjustments().get(power, 0)
    given = len(adjustments_given(game, power))
    left = abs(delta) - given
    if left <= 0:
        return ""
    more = " more" if given else ""
    return f"{name} may build {unit_count(left, more)}." if delta > 0 else \
        f"{name} must remove {unit_count(left, more)}."


def all_given(game: Game, power: str) -> str:
    """When ``power`` has given all the builds or removals due, the note for a click that would give one
    more (it would not count); "" otherwise. It names the orders that count, the first given."""
    variant = game.variant
    delta = game.adjustments().get(power, 0)
    count = abs(delta)
    given = adjustments_given(game, power)
    if not delta or len(given) < count:
        return ""
    name = variant.powers[power].name
    listed = ", ".join(named(variant, o) for o in given[:count])
    beyond = len(given) - count
    if beyond:
        listed += f"; {beyond} more given will not count"
    if delta > 0:
        waived = any(isinstance(o, Waive) for o in given)
        back = (" (a waive is taken back only by clearing the power's orders)" if waived else "")
        return (f"{name} has used its {count} build{'s' if count != 1 else ''} ({listed}): click a build given "
                f"to withdraw it{back}.")
    which = "one of those units" if count != 1 else "that unit"
    return (f"{name} has chosen its {count} removal{'s' if count != 1 else ''} ({listed}): click {which} to "
            "keep it instead.")


def not_yours(game: Game, player: str, province: str) -> str:
    """In ``player``'s view (none: ""), the note for a click on another power's unit in ``province`` ("" otherwise)."""
    variant = game.variant
    unit = game.units.get(province)
    if not player or unit is None or unit.power == player or unit.power not in variant.powers:
        return ""
    here = variant.province_name(province)
    return (f"The unit in {here} is {variant.powers[unit.power].name}'s, not yours: you order "
            f"{variant.powers[player].name}'s units.")


def player_prompt(game: Game, player: str) -> str:
    """An adjustment phase's prompt to ``player``: their own builds or removals."""
    name = game.variant.powers[player].name
    delta = game.adjustments().get(player, 0)
    count = abs(delta)
    given = len(adjustments_given(game, player))
    if not delta:
        return f"{name} has no builds or removals this phase."
    if given >= count:
        return all_given(game, player)
    if delta > 0:
        what, how = "may build", "click one of your highlighted home centres to build"
        back = "a build given to withdraw it"
    else:
        what, how, back = "must remove", "click one of your units to remove it", "one chosen to keep it"
    if given:
        return f"{name} {what} {unit_count(count - given, ' more')}: {how}, or {back}."
    return f"{name} {what} {unit_count(count)}: {how}."
