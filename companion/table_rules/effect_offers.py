"""What the card editor offers of each effect: its rule text and its parameters as fields to
fill in (steppers, choices), and a card's parameters in words (no Kivy).

Read from the engine's effect specs (engine.board.EFFECT_SPECS), so an effect the engine adds is
offered without a change here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.words import _, language
from companion.words.effects import choice_word, effect_title, meaning_words, parameter_word, rule_words
from engine.board.effect_specs import EFFECT_SPECS


@dataclass(frozen=True)
class ParamField:
    """One parameter of an effect, as the card editor offers it."""

    name: str
    kind: str  # int | bool | choice | multi
    required: bool
    meaning: str
    low: int = 0
    high: int = 0
    values: tuple[str, ...] = ()

    def start(self) -> Any:
        """The value offered first (an optional parameter starts left out)."""
        if not self.required:
            return None
        return {
            "int": self.low,
            "bool": False,
            "choice": self.values[:1] and self.values[0],
            "multi": list(self.values[: self.low]),
        }[self.kind]

    def left_out(self) -> str:
        """What leaving an optional parameter out means ("all of them")."""
        found = re.search(r"\(left out: ([^)]*)\)", self.meaning)
        return meaning_words(found.group(1)) if found else _("not given")

    def step(self, value: Any, delta: int) -> Any:
        """An int stepper: optional ones go below their least to "left out"."""
        if value is None:
            return self.low if delta > 0 else None
        value += delta
        if value < self.low:
            return None if not self.required else self.low
        return min(value, self.high)


def param_fields(effect: str) -> list[ParamField]:
    spec = EFFECT_SPECS[effect]
    out = []
    for name, p in spec.params.items():
        kind = {"int": "int", "bool": "bool", "list": "multi"}.get(p.type, "choice")
        out.append(ParamField(name, kind, p.required, p.meaning, p.min or 0, p.max or 0, tuple(p.values or ())))
    return out


@dataclass(frozen=True)
class EffectOffer:
    name: str
    title: str  # "Militia"
    rule_text: str  # the rule book's sentences (this rule set's first)
    params: tuple[ParamField, ...]


def effect_offers(rules: str = "2023") -> list[EffectOffer]:
    """Every effect a card of `rules` may carry, with its rule text and parameters."""
    out = []
    for spec in EFFECT_SPECS.values():
        if rules not in spec.rules:
            continue
        texts = sorted(spec.rule_text, key=lambda t: t.book != ("2023" if rules == "2023" else "classic 1995"))
        out.append(
            EffectOffer(
                spec.name,
                effect_title(spec.name),
                rule_words(spec.name, texts, "\n"),
                tuple(param_fields(spec.name)),
            )
        )
    return out


def params_words(effect: str, params: dict) -> str:
    fields = {f.name: f for f in param_fields(effect)} if effect in EFFECT_SPECS else {}
    parts = []
    for key, value in params.items():
        name = key if language() == "en" else parameter_word(key)  # English: the card file's own words
        if value is None:
            parts.append(_("{name}: not known").format(name=name))
        elif isinstance(value, list):
            parts.append(f"{name}: {', '.join(choice_word(v) for v in value)}")
        else:
            parts.append(f"{name}: {str(value).lower() if isinstance(value, bool) else choice_word(value)}")
    for key, f in fields.items():
        if key not in params and not f.required:
            name = key if language() == "en" else parameter_word(key)
            parts.append(f"{name}: {f.left_out()}")
    return "; ".join(parts)


def modifier_abilities() -> list[EffectOffer]:
    """The effects a Modifier card's ability may have (engine/rules/edition_2023/power_shift.py)."""
    from engine.rules.edition_2023.power_shift import NOT_AN_ABILITY

    return [e for e in effect_offers("2023") if e.name not in NOT_AN_ABILITY]
