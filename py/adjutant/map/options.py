"""A variant's rule options: named, typed, in one place, read by the code that needs them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, get_args

from ..errors import VariantError

#: The backup rules a variant may name: the one list of them. Szykman's is the classic rules' backup
#: (``adjutant.adjudication.hooks.AdjudicationHooks.backup``); Coast-Running's adds to it that a carried
#: attack may not affect its carriers (``adjutant.variants.coast_running.CoastRunning.voided_moves``).
BackupRuleName = Literal["szykman", "coast_running"]
BACKUP_RULES: tuple[BackupRuleName, ...] = get_args(BackupRuleName)


@dataclass(frozen=True)
class RuleOptions:
    """Options a variant sets in its data file under ``"options"``.

    >>> RuleOptions.from_data({"backup_rule": "coast_running"}, "x.json").backup_rule
    'coast_running'
    """

    #: How a paradoxical convoy is resolved: the DATC's preferred Szykman rule, or Coast-Running's
    #: "a convoyed attack may not affect the convoying fleets".
    backup_rule: BackupRuleName = "szykman"
    #: Whether the Coast-Running "P" (protect) order exists.
    protect_order: bool = False
    #: The 1971 reading of ambiguous convoy routes: a convoy (or coast run) fails if any unit ordered to
    #: carry it is dislodged, even when another route survives. Off: any surviving route will do (DATC).
    any_carrier_disrupts: bool = False

    @property
    def order_kinds(self) -> frozenset[str]:
        """The orders a variant with these options takes beyond the classic ones."""
        return frozenset({"protect"}) if self.protect_order else frozenset()

    @classmethod
    def from_data(cls, data: dict[str, Any], source: str) -> RuleOptions:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise VariantError(f"{source}: unknown option {key!r} (known: {', '.join(sorted(known))})")
            default = getattr(cls, key)
            if type(value) is not type(default):
                raise VariantError(f"{source}: option {key!r} must be a {type(default).__name__}, not {value!r}")
            values[key] = value
        if values.get("backup_rule", "szykman") not in BACKUP_RULES:
            raise VariantError(
                f"{source}: option 'backup_rule' must be one of {', '.join(BACKUP_RULES)}, "
                f"not {values['backup_rule']!r}"
            )
        return cls(**values)

    def to_data(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}


@dataclass(frozen=True)
class ClusterRules:
    """Cluster Diplomacy's Sites of the Ancients (``"cluster"`` in the variant data)."""

    #: the orders a variant with this section takes beyond the classic ones (rules 2, 4, 5 and 6)
    ORDER_KINDS: ClassVar[frozenset[str]] = frozenset({"research", "transfer", "mattermission", "nomination"})

    site_levels: tuple[int, ...]
    sites_per_level: int
    #: at least and at most this many sites of each level stand at sea
    sea_sites_per_level: tuple[int, int]
    sites_per_country_per_level: int
    #: country -> its provinces (home centres and the text's additions)
    countries: dict[str, tuple[str, ...]]
    #: how far (in moves across any border) a unit may be mattermitted
    mattermission_range: int
    #: the strengths of each power's multiple units (rule 1), strongest first
    multiples: tuple[int, ...] = (3, 2)

    @classmethod
    def from_data(cls, data: Any, source: str, provinces: set[str]) -> ClusterRules:
        if not isinstance(data, dict):
            raise VariantError(f"{source}: 'cluster' must be an object")
        try:
            rules = cls(
                site_levels=tuple(int(x) for x in data["site_levels"]),
                sites_per_level=int(data["sites_per_level"]),
                sea_sites_per_level=(int(data["sea_sites_per_level"][0]), int(data["sea_sites_per_level"][1])),
                sites_per_country_per_level=int(data["sites_per_country_per_level"]),
                countries={str(k): tuple(str(p) for p in v) for k, v in data["countries"].items()},
                mattermission_range=int(data["mattermission_range"]),
                multiples=tuple(int(x) for x in data.get("multiples", (3, 2))),
            )
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise VariantError(f"{source}: 'cluster' is incomplete or malformed ({e})") from None
        for country, members in rules.countries.items():
            for p in members:
                if p not in provinces:
                    raise VariantError(f"{source}: cluster country {country!r} names unknown province {p!r}")
        return rules
