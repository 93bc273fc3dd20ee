"""The vocabulary of special-action effects (engine/data/effects.json): each effect's parameters,
its rule text and the rule sets using it; every card file names its effects from it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .errors import BoardDataError
from .files import read_json


class _ParamSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["int", "bool", "str", "list"]
    required: bool
    meaning: str
    values: list[str] | None = None
    min: int | None = None
    max: int | None = None


class _RuleText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    book: Literal["classic 1995", "2023"]
    text: str = Field(min_length=1)


class EffectSpec(BaseModel):
    """One effect of engine/data/effects.json: its parameters, the rule text, the rule sets using it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    params: dict[str, _ParamSpec]
    rule_text: list[_RuleText] = Field(min_length=1)
    rules: list[Literal["classic", "2023"]] = Field(min_length=1)
    notes: str = ""


class _EffectsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    about: str
    effects: list[EffectSpec]


def _load_effects() -> dict[str, EffectSpec]:
    specs = _EffectsFile.model_validate(read_json("effects.json")).effects
    by_name = {s.name: s for s in specs}
    if len(by_name) != len(specs):
        raise BoardDataError("effects.json: an effect is listed twice")
    for spec in specs:
        for pname, p in spec.params.items():
            if (p.type in ("int", "list")) != (p.min is not None and p.max is not None):
                raise BoardDataError(
                    f"effects[{spec.name}].params.{pname}: int and list parameters need min and max, others none"
                )
    return by_name


# The vocabulary of effects, by name (engine/data/effects.json).
EFFECT_SPECS: dict[str, EffectSpec] = _load_effects()

# Effects with the parameters every card of that effect must state (optional ones left out).
EFFECT_PARAMS: dict[str, set[str]] = {
    name: {p for p, s in spec.params.items() if s.required} for name, spec in EFFECT_SPECS.items()
}


def param_problem(spec: _ParamSpec, value: Any) -> str | None:
    """Why `value` is not allowed for a parameter, or None."""
    if spec.type == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    low, high = spec.min, spec.max  # set for "int" and "list" (checked when the file is loaded)
    if spec.type == "int":
        assert low is not None and high is not None
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else f"must be an integer {spec.min}..{spec.max}"
    if spec.type == "str":
        if isinstance(value, str) and (spec.values is None or value in spec.values):
            return None
        return "must be one of " + ", ".join(f'"{v}"' for v in spec.values or [])
    allowed = ", ".join(f'"{v}"' for v in spec.values or [])
    assert low is not None and high is not None
    if not isinstance(value, list) or not low <= len(value) <= high:
        return f"must be a list of {spec.min} to {spec.max} of {allowed}"
    bad = [v for v in value if not isinstance(v, str) or (spec.values and v not in spec.values)]
    return f"must list only {allowed} (not {bad[0]!r})" if bad else None
