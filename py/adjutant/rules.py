"""A variant's rule options: named, typed, in one place, read by the code that needs them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import VariantError

BACKUP_RULES = ("szykman", "coast_running")


@dataclass(frozen=True)
class RuleOptions:
    """Options a variant sets in its data file under ``"options"``.

    >>> RuleOptions.from_data({"backup_rule": "coast_running"}, "x.json").backup_rule
    'coast_running'
    """

    #: How a paradoxical convoy is resolved: the DATC's preferred Szykman rule, or Coast-Running's
    #: "a convoyed attack may not affect the convoying fleets".
    backup_rule: str = "szykman"
    #: Whether the Coast-Running "P" (protect) order exists.
    protect_order: bool = False
    #: The 1971 reading of ambiguous convoy routes: a convoy (or coast run) fails if any unit ordered to
    #: carry it is dislodged, even when another route survives. Off: any surviving route will do (DATC).
    any_carrier_disrupts: bool = False

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
