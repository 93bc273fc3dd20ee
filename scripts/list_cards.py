"""Write docs/cards.md: every card of every shipped card set, by name, with the
effect that plays it, that effect's file and its test, so a card is found by
its name in two steps (README, "Where to find a rule").

    python3 scripts/list_cards.py            # rewrite docs/cards.md
    python3 scripts/list_cards.py --check    # exit 1 if docs/cards.md is out of date

Reads only engine/data/*.json (standard library only). A path that does not
exist yet is marked, so the list stays honest while effects move into files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "engine" / "data"
OUT = ROOT / "docs" / "cards.md"
NOT_YET = " (not yet)"

HEADER = """# Every card, by name

Generated from `engine/data/*.json` by `python3 scripts/list_cards.py`; do not edit by hand
(`--check` says whether it is up to date). A card is played by its **effect** (the card data's
`effect` field): the rule is `engine/effects/<effect>.py`, its test
`tests/engine/effects/test_<effect>.py`. A path marked "(not yet)" did not exist when this list
was generated (the classic effects were still in `engine/flow.py` then; search it for the effect
name). Cards with the same name (the classic Intrigue cards, the Special Scorings) differ in their
parameters: the `id` and the text tell them apart.
"""


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _path(relative: str) -> str:
    mark = "" if (ROOT / relative).exists() else NOT_YET
    return f"`{relative}`{mark}"


def _where(effect: str | None) -> tuple[str, str]:
    if effect is None:
        return "not published: the table enters it from its box (docs/rule-data.md)", ""
    if effect == "none":
        return "no special action (the card only ranks the players)", ""
    return (_path(f"engine/effects/{effect}.py"), _path(f"tests/engine/effects/test_{effect}.py"))


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _table(cards: list[dict], extra: str) -> list[str]:
    lines = [f"| card | id | {extra} | effect | rule | test |", "|---|---|---|---|---|---|"]
    for card in sorted(cards, key=lambda c: (c["name"].lower(), c["id"])):
        effect = card.get("effect")
        rule, test = _where(effect)
        detail = card.get("module") or ""
        if extra == "value":
            detail = "" if card.get("value") is None else str(card["value"])
            if card.get("module"):
                detail = f"{detail} ({card['module']})".strip()
        shown = "—" if effect is None else f"`{effect}`"
        lines.append(f"| {card['name']} | `{card['id']}` | {detail} | {shown} | {rule} | {test} |")
    return lines


def _texts(cards: list[dict]) -> list[str]:
    return [f"- `{c['id']}`: {_short(c.get('text', ''))}" for c in sorted(cards, key=lambda c: c["id"])]


def render() -> str:
    classic = _load("action_cards_classic.json")["cards"]
    edition = _load("action_cards_2023.json")["cards"]
    ki = _load("cards_king_intrigue.json")
    out = [HEADER]
    out += ["## Classic (1995): Action cards", ""] + _table(classic, "module") + [""]
    out += ["Their texts:", ""] + _texts(classic) + [""]
    out += [
        "## 2023 edition: Action cards the rule book names",
        "",
        "Module cards carry their module (New Regency, Old Hands). Power Shift's 16 Modifier cards are",
        "not published: the table enters them (docs/rule-data.md); a Modifier's ability is played by",
        "the effect it names, as above.",
        "",
    ]
    out += _table(edition, "module") + [""]
    out += ["## King and Intrigue: Action cards", ""] + _table(ki["action_cards"], "module") + [""]
    out += [
        "## King and Intrigue: Power cards (base game and modules)",
        "",
        "The six scoring cards' effect and the 30 card's action are not published: the table enters",
        "them once (docs/rule-data.md), then the effect it names plays them.",
        "",
    ]
    out += _table(ki["power_cards"], "value") + [""]
    effects = sorted(
        {
            c["effect"]
            for c in classic + edition + ki["action_cards"] + ki["power_cards"]
            if c.get("effect") not in (None, "none")
        }
    )
    out += ["## Every effect and its cards", ""]
    by_effect = {e: [] for e in effects}
    for system, cards in (("classic", classic), ("2023", edition), ("K&I", ki["action_cards"] + ki["power_cards"])):
        for card in cards:
            if card.get("effect") in by_effect:
                by_effect[card["effect"]].append(f"{card['name']} ({system})")
    for effect in effects:
        names = ", ".join(dict.fromkeys(by_effect[effect]))
        out.append(f"- `{effect}`: {names}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python3 scripts/list_cards.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
