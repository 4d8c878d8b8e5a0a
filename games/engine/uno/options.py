"""House rules, as every Uno game that offers some declares them: a table of the rules the rulings
allow (with what each does, for players), which of them the engine enforces, and which are refused
for good (with why). From it, the options' JSON Schema and their validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .. import errors as E
from ..errors import EngineError


class HouseRules(NamedTuple):
    """A game's house rules: ``texts`` maps each rule the rulings allow, in the order of the page,
    to what it does (players read it as it is); ``supported`` are those the engine enforces (a rule
    allowed but not built is refused at creation, never ignored); ``refused`` maps a rule refused
    for good to the reason a player reads."""

    texts: Mapping[str, str]
    supported: frozenset[str]
    refused: Mapping[str, str] = {}

    def schema(self) -> dict[str, Any]:
        """The options' JSON Schema: a boolean per rule offered; the others, when there are any,
        under ``x-not-offered`` with why."""
        later = {
            name: "allowed by the rulings, not available yet"
            for name in self.texts
            if name not in self.supported
        }
        not_offered: dict[str, str] = {**later, **self.refused}
        schema: dict[str, Any] = {"type": "object", "additionalProperties": False}
        if not_offered:
            listed = "; ".join(f"{name}: {why}" for name, why in not_offered.items())
            schema["description"] = (
                f"House rules, each off by default. Refused at creation: {listed}."
            )
            schema["x-not-offered"] = not_offered
        schema["properties"] = {
            name: {"type": "boolean", "default": False, "description": text}
            for name, text in self.texts.items()
            if name in self.supported
        }
        return schema

    def validate(self, options: Any) -> dict[str, bool]:
        """The house rules with every default filled in; ``invalid_setup`` for anything else."""
        if not isinstance(options, dict):
            raise EngineError(E.INVALID_SETUP, "options are an object of house rules")
        for name in options:
            if name in self.refused and options[name] is not False:
                raise EngineError(
                    E.INVALID_SETUP, f"house rule {name} is not offered: {self.refused[name]}"
                )
        unknown = set(options) - set(self.texts) - set(self.refused)
        if unknown:
            raise EngineError(E.INVALID_SETUP, f"unknown house rules: {', '.join(sorted(unknown))}")
        opts = {}
        for name in self.texts:
            value = options.get(name, False)
            if not isinstance(value, bool):
                raise EngineError(E.INVALID_SETUP, f"house rule {name} is true or false")
            if value and name not in self.supported:
                raise EngineError(E.INVALID_SETUP, f"house rule {name} is not available yet")
            opts[name] = value
        return opts
