"""A card's words in one home: what the table says of each effect a card may carry.

(being built)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import EFFECT_SPECS


@dataclass(frozen=True)
class EffectChoice:
    """One effect a card may have, for the card-set editor: its rule text beside it."""

    name: str
    title: str  # "Militia"
    rule_text: str  # the rule book's own sentences (2023 first)
    params: dict[str, dict]  # name -> {type, required, meaning, values, min, max}
    notes: str = ""


def effect_choices(rules: str = "2023") -> list[EffectChoice]:
    """Every effect a card of `rules` may carry (engine/data/effects.json), with its rule text."""
    out = []
    for spec in EFFECT_SPECS.values():
        if rules not in spec.rules:
            continue
        texts = sorted(spec.rule_text, key=lambda t: t.book != rules)
        out.append(
            EffectChoice(
                spec.name,
                spec.name.replace("_", " ").capitalize(),
                " ".join(f"({t.book}) {t.text}" for t in texts),
                {n: p.model_dump(exclude_none=True) for n, p in spec.params.items()},
                spec.notes,
            )
        )
    return out
