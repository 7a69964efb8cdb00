"""Which rules each variant plays by: the one list of variants with rules of their own (each a
:class:`~adjutant.variants.hooks.VariantRules` subclass), the classic rules for every other.

>>> from adjutant import load_variant
>>> rules_for(load_variant("cluster")).title, rules_for(load_variant("standard")).title
('Cluster', 'classic')
"""

from __future__ import annotations

from ..map.variant import Variant
from .cluster import ClusterDiplomacy
from .hooks import CLASSIC, VariantRules

#: the variants' own rules, asked in this order whether they are a variant's
RULEBOOK: tuple[VariantRules, ...] = (ClusterDiplomacy(),)


def rules_for(variant: Variant) -> VariantRules:
    """The rules ``variant`` is played by."""
    for rules in RULEBOOK:
        if rules.applies_to(variant):
            return rules
    return CLASSIC


def file_sections() -> dict[str, VariantRules]:
    """The variants' own sections of a game file, by key, with the rules that write them."""
    return {rules.file_key: rules for rules in RULEBOOK if rules.file_key is not None}


__all__ = ["RULEBOOK", "file_sections", "rules_for"]
