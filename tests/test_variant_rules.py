"""A variant's own rules are hooks the game calls (adjutant.variants.hooks): a variant without any and
Cluster Diplomacy with its own go through the same Game code, and a variant's hook changes the game
without the game knowing which variant it is."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from adjutant.adjudication.legality import illegal_reason
from adjutant.adjudication.orders import Convoy, Move, Unit, UnitOrder, parse_order
from adjutant.errors import OrderError
from adjutant.formats.gamefile import dumps, loads
from adjutant.game import Game
from adjutant.map.variant import Variant
from adjutant.randomgame import random_game
from adjutant.variants import registry as rulebook
from adjutant.variants.cluster import ClusterDiplomacy
from adjutant.variants.cluster_orders import Research
from adjutant.variants.hooks import CLASSIC, Objection, VariantRules, VariantState

#: every hook a variant's rules may override
HOOKS = sorted(name for name, value in vars(VariantRules).items() if callable(value) and not name.startswith("_"))
#: the hooks the game calls whatever the variant (the variant's own movement only where it has one)
GAME_HOOKS = {
    "start",
    "orderable",
    "unit_order_problem",
    "view_of",
    "adjudicates_movement",
    "retreat_orders",
    "after_retreats",
    "after_adjustments",
    "adjustments_skipped",
    "file_section",
    "random_orders",  # (by the random games played here)
}


def recording(base: type[VariantRules], variant_id: str) -> tuple[VariantRules, list[str]]:
    """``base``'s rules for ``variant_id``, recording the name of each hook called."""
    calls: list[str] = []

    def recorded(name: str) -> Callable[..., Any]:
        def hook(self: VariantRules, *args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return getattr(base, name)(self, *args, **kwargs)

        return hook

    recorder = type("Recording" + base.__name__, (base,), {name: recorded(name) for name in HOOKS})
    recorder.applies_to = lambda self, variant: variant.id == variant_id  # type: ignore[method-assign]
    return recorder(), calls


def play(variant: str, rules: VariantRules, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Three years of a seeded random game under ``rules``, orders typed in the first phase, written to
    a file and read back."""
    monkeypatch.setattr(rulebook, "RULEBOOK", (rules,))
    typed = Game.new(variant, seed=14)
    assert typed.add_orders("France: A Par - Bur; A Mar - Spa") == []  # read for their power, checked as given
    game = list(random_game(variant, seed=14, years=3))[-1]
    played = {(r.phase.kind, r.skipped) for r in game.history}
    assert {("retreat", False), ("adjustment", False), ("adjustment", True)} <= played
    return loads(dumps(game))


def test_the_classic_rules_and_clusters_go_through_the_same_game_code(monkeypatch: pytest.MonkeyPatch) -> None:
    classic, classic_calls = recording(VariantRules, "standard")
    cluster, cluster_calls = recording(ClusterDiplomacy, "cluster")
    play("standard", classic, monkeypatch)
    play("cluster", cluster, monkeypatch)
    assert set(classic_calls) >= GAME_HOOKS
    assert set(cluster_calls) >= GAME_HOOKS
    # Cluster adjudicates its movement phases itself, around the resolver; the classic rules never do
    assert "adjudicate_movement" in cluster_calls and "adjudicate_movement" not in classic_calls
    assert "state_from_file" in cluster_calls and "state_from_file" not in classic_calls


def test_the_classic_hooks_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = dumps(play("standard", CLASSIC, monkeypatch))
    classic, calls = recording(VariantRules, "standard")
    assert dumps(play("standard", classic, monkeypatch)) == plain and calls


class NoBurgundy(VariantRules):
    """A made-up variant's rule: no unit may move to Burgundy (the order is refused as it is given)."""

    def applies_to(self, variant: Variant) -> bool:
        return variant.id == "standard"

    def unit_order_problem(self, variant: Variant, state: VariantState | None, order: UnitOrder) -> Objection | None:
        if isinstance(order, Move) and order.dest == "bur":
            return Objection("Burgundy is closed", refused=True)
        return None


def test_a_variants_hook_changes_the_game_without_the_game_knowing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "RULEBOOK", (NoBurgundy(),))
    game = Game.new("standard")
    assert isinstance(game.rules, NoBurgundy)
    (problem,) = game.add_orders("France: A Par - Bur; A Mar - Spa")
    assert problem.message == "Burgundy is closed" and not problem.kept
    assert [str(o.unit) for os in game.all_orders().values() for o in os] == ["A mar"]


def test_the_rulebook_gives_each_variant_its_rules() -> None:
    from adjutant import load_variant

    assert isinstance(rulebook.rules_for(load_variant("cluster")), ClusterDiplomacy)
    assert rulebook.rules_for(load_variant("standard")) is CLASSIC
    assert Game.new("standard").position.variant_state is None


@pytest.mark.parametrize("text", ["A par RES", "F bre TRA par", "A par MAT bur", "Nominate 3 par"])
def test_a_variants_own_order_kinds_are_its_datas(text: str) -> None:
    """The parser takes an order of a kind only some variants have where the variant's data names the
    kind (Variant.order_kinds), whatever the variant: not in Standard, in Cluster, and in a Standard
    map said to have it."""
    from adjutant import load_variant

    standard, cluster = load_variant("standard"), load_variant("cluster")
    units = Game.new("standard").units
    with pytest.raises(OrderError, match=r"there is no \w+ in Standard Diplomacy"):
        parse_order(text, standard, units, power="france")
    assert parse_order(text, cluster, units, power="france")
    kind = {"RES": "research", "TRA": "transfer", "MAT": "mattermission"}.get(text.split()[2], "nomination")
    widened = replace(standard, order_kinds=frozenset({kind}), multiples=(3, 2))
    assert parse_order(text, widened, units, power="france")


def test_research_is_legal_where_the_variant_takes_it() -> None:
    from adjutant import load_variant

    standard = load_variant("standard")
    research = Research(Unit("france", "A", "par"))
    units = Game.new("standard").units
    assert illegal_reason(standard, research, units, "spring") == "there is no research in Standard Diplomacy"
    assert illegal_reason(load_variant("cluster"), research, units, "spring") == ""
    assert illegal_reason(replace(standard, order_kinds=frozenset({"research"})), research, units, "spring") == ""


def test_a_nomination_names_one_of_the_variants_multiples() -> None:
    from adjutant import load_variant

    units = Game.new("cluster", seed=1).units
    with pytest.raises(OrderError, match="there is no 4 times force unit to nominate \\(only 3 or 2\\)"):
        parse_order("Nominate 4 par", load_variant("cluster"), units, power="france")


class NoConvoys(VariantRules):
    """A made-up variant's rule for the resolver: no convoy ever has its path."""

    def applies_to(self, variant: Variant) -> bool:
        return variant.id == "standard"

    def carried_path(self, *args: Any) -> bool:
        return False


def test_a_variants_hook_changes_the_resolver_without_the_resolver_knowing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolver asks the registry's rules for a variant (adjutant.adjudication.hooks.rules_of), not
    which variant it is."""
    from adjutant import load_variant
    from adjutant.adjudication.resolver import adjudicate_movement

    v = load_variant("standard")
    army, fleet = Unit("england", "A", "lon"), Unit("england", "F", "nth")
    units = {"lon": army, "nth": fleet}
    orders: list[UnitOrder] = [Move(army, "nwy", True), Convoy(fleet, "lon", "nwy")]
    assert adjudicate_movement(v, units, orders).units.get("nwy") == Unit("england", "A", "nwy")
    monkeypatch.setattr(rulebook, "RULEBOOK", (NoConvoys(),))
    (move, _) = adjudicate_movement(v, units, orders).results
    assert (move.success, move.reason) == (False, "no convoy path")


#: a made-up variant's own kind of order, in a module of its own: "A Par SAL", a unit's salute, which stands
SALUTE = '''
from dataclasses import dataclass, replace
from typing import ClassVar

from adjutant import format_order, load_variant
from adjutant.adjudication.legality import illegal_reason
from adjutant.adjudication.orders import UnitOrderKind, VariantUnitOrder, add_order_kind, describe, parse_order
from adjutant.errors import OrderError
from adjutant.game import Game


@dataclass(frozen=True, slots=True)
class Salute(VariantUnitOrder):
    KIND: ClassVar[str] = "salute"
    NOUN: ClassVar[str] = "salute"
    STANDS: ClassVar[bool] = True

    def text(self):
        return f"{self.unit} SAL"

    def long_form(self, variant):
        return f"{self.unit} SALUTES."


def read(r, unit, units):
    r.expect_end()
    return Salute(unit)


add_order_kind(UnitOrderKind(Salute, "SAL", ("sal", "salute"), read))
standard = load_variant("standard")
saluting = replace(standard, order_kinds=frozenset({"salute"}))
units = Game.new("standard").units
order = parse_order("France: A Paris salute", saluting, units)
legal = illegal_reason(saluting, order, units, "spring") or "legal"
print(format_order(order), "|", describe(order, saluting), "|", legal)
try:
    parse_order("A Par SAL", standard, units)
except OrderError as e:
    print(e.reason)
try:
    parse_order("A Par SAL", saluting, units, phase="retreat", dislodged=units)
except OrderError as e:
    print(e.reason)
'''


def test_a_variant_adds_a_kind_of_order_without_the_parser_knowing_it() -> None:
    """A variant's module lists its own kind of order with its grammar (as Cluster's does,
    adjutant.variants.cluster_orders): the parser, the canonical text, the long form and legality take it
    where the variant's data names the kind, and refuse it by its name elsewhere. (In a process of its own:
    a kind listed stays listed.)"""
    done = subprocess.run([sys.executable, "-c", SALUTE], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "A par SAL | A par SALUTES. | legal",
        "there is no salute in Standard Diplomacy",
        "a salute order cannot be given in a retreat phase",
    ]
