"""Which rules each variant plays by: the one list of variants with rules of their own (each a
:class:`~adjutant.variants.hooks.VariantRules` subclass), the classic rules for every other. Legality and
the resolver, a layer below, ask it through :func:`adjutant.adjudication.hooks.rules_of`, which this module
points here as it is imported.

>>> from adjutant import load_variant
>>> rules_for(load_variant("cluster")).title, rules_for(load_variant("standard")).title
('Cluster', 'classic')
"""

from __future__ import annotations

from ..adjudication.hooks import look_up_rules_with
from ..map.variant import Variant
from .cluster import ClusterDiplomacy
from .coast_running import CoastRunning
from .hooks import CLASSIC, VariantRules

#: the variants' own rules, asked in this order whether they are a variant's
RULEBOOK: tuple[VariantRules, ...] = (ClusterDiplomacy(), CoastRunning())


def rules_for(variant: Variant) -> VariantRules:
    """The rules ``variant`` is played by."""
    for rules in RULEBOOK:
        if rules.applies_to(variant):
            return rules
    return CLASSIC


def file_sections() -> dict[str, VariantRules]:
    """The variants' own sections of a game file, by key, with the rules that write them."""
    return {rules.file_key: rules for rules in RULEBOOK if rules.file_key is not None}


look_up_rules_with(rules_for)


__all__ = ["RULEBOOK", "file_sections", "rules_for"]
