"""Your cards: the table's own 2023 card set, the shipped cards completed or corrected by its card
file, Power Shift's Modifier cards among them (no Kivy).

The companion keeps the file in the user data folder, in the format `engine.board.load_cards`
validates (README "Rule sets"):

    rules/cards-2023.json              the table's card file (Power Shift's Modifier cards in it too)
    rules/modifiers-draft-2023.json    Modifier cards entered so far, until all 16 are

Every edit is checked like a card file: a mistake is refused with its one-line message and
nothing changes (`RuleFileError`). The card file is exported to, and imported from, another
tablet whole. The screen is a thin view of `CardSetDraft`; cards entered during a game are kept
here too (`remember_card_entries`).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

from companion.table_rules.effect_offers import params_words
from companion.table_rules.storage import RuleFileError, exports_folder, read_json, rules_folder, write_json
from companion.words import N_, _
from companion.words.effects import effect_title
from companion.words.sources import source_words
from engine.board.effect_specs import EFFECT_SPECS
from engine.board.errors import DataFileError
from engine.board.load import load_cards
from engine.board.model import CardSet
from engine.card_entry import merged_cards_file

CARDS_FILE = "cards-2023.json"
MODIFIERS_DRAFT = "modifiers-draft-2023.json"  # Power Shift's cards entered so far, until all 16 are
EXPORT_NAME = "el-grande-cards-2023.json"
MODIFIER_SET = 16  # Power Shift's Modifier cards in the box


def cards_path() -> Path:
    return rules_folder() / CARDS_FILE


def modifiers_draft_path() -> Path:
    return rules_folder() / MODIFIERS_DRAFT


UNKNOWN_WORDS = {"stack": N_("its stack"), "copies": N_("copies"), "placement": N_("Caballeros it places")}


def unknown_words(unknown) -> list[str]:
    """A card's facts not entered, in people's words ("its numbers" for every number its effect
    takes: the card's own text names them), each once."""
    words: list[str] = []
    for key in unknown:
        if key in UNKNOWN_WORDS:
            said = _(UNKNOWN_WORDS[key])
        else:
            said = _("its numbers") if key.startswith("params.") else key.replace("_", " ")
        if said not in words:
            words.append(said)
    return words


@dataclass(frozen=True)
class CardRow:
    id: str
    name: str
    stack: int | None
    copies: int | None
    text: str
    effect: str
    params: dict
    source: str
    module: str | None
    unknown: tuple[str, ...]  # its facts not known: "stack", "copies", "params.outcome" ...

    @property
    def stack_words(self) -> str:
        if self.stack is None:
            return _("stack ?")
        if self.module == "new-regency":
            return _("stack {stack} (New Regency)").format(stack=self.stack)
        if self.module == "old-hands":
            return _("stack {stack} (Old Hands)").format(stack=self.stack)
        return _("stack {stack}").format(stack=self.stack)

    @property
    def copies_words(self) -> str:
        return _("copies ?") if self.copies is None else f"×{self.copies}"


@dataclass(frozen=True)
class ModifierRow:
    id: str
    value: int
    name: str
    ability: str  # "none" or the effect's title and parameters
    source: str


def _slug(name: str) -> str:
    accents = str.maketrans("áàâäéèêëíìîïóòôöúùûüñç", "aaaaeeeeiiiioooouuuunc")
    plain = name.lower().translate(accents)
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")[:40] or "card"


NEW_CARD_FIELDS = {"stack": N_("stack"), "copies": N_("copies")}  # what a new card is refused without


def _ability_words(ability: dict | None) -> str:
    """A Modifier card's ability as Your cards lists it: its effect and parameters."""
    if not ability:
        return _("no ability")
    numbers = params_words(ability["effect"], ability.get("params", {}))
    title = effect_title(ability["effect"])
    return _("{effect} ({numbers})").format(effect=title, numbers=numbers) if numbers else title


class CardSetDraft:
    """The table's card set: the shipped 2023 cards completed or corrected by its card file.
    Every edit is checked like a card file; a refused one changes nothing."""

    def __init__(self, table_file: dict | None = None, modifier_draft: list | None = None):
        start = copy.deepcopy(table_file) if table_file else {"rules": "2023", "cards": []}
        self.cards = self._build(start)
        self.file = start
        # Power Shift's Modifier cards entered one by one: a card file lists all 16 or none, so
        # those entered so far wait here until the last one is in.
        self.modifier_draft: list[dict] = list(modifier_draft or []) if not start.get("modifiers") else []

    @classmethod
    def load(cls) -> CardSetDraft:
        data = read_json(cards_path())
        if data is not None and not isinstance(data, dict):
            raise RuleFileError(f"{CARDS_FILE}: must be a JSON object, not {type(data).__name__}")
        try:
            draft = read_json(modifiers_draft_path())
        except RuleFileError:
            draft = None
        return cls(data, draft if isinstance(draft, list) else None)

    @staticmethod
    def _build(table_file: dict) -> CardSet:
        try:
            cards = load_cards("2023", table_file)
        except DataFileError as exc:
            raise RuleFileError(str(exc)) from None
        if "modifiers" in table_file:  # the printed cards only: the stand-in set is a setup's choice
            from engine.rules.edition_2023.power_shift import ModifierDataError, parse_modifiers

            try:
                parse_modifiers(table_file["modifiers"], allow_stand_in=False)
            except ModifierDataError as exc:
                raise RuleFileError(f"card file: {exc}") from None
        return cards

    # ---- reading --------------------------------------------------------------------

    def rows(self) -> list[CardRow]:
        """Every card, by stack (unknown stacks last), then name."""
        missing = self.cards.missing
        out = []
        for c in self.cards.cards.values():
            prefix = f"cards.{c.id}."
            unknown = tuple(k[len(prefix) :] for k in missing if k.startswith(prefix))
            out.append(
                CardRow(c.id, c.name, c.stack, c.copies, c.text, c.effect, dict(c.params), c.source, c.module, unknown)
            )
        return sorted(out, key=lambda r: (r.stack is None, r.stack or 0, r.module or "", r.name))

    def row(self, cid: str) -> CardRow:
        return next(r for r in self.rows() if r.id == cid)

    def stack_notes(self) -> list[str]:
        """What is still unknown about whole stacks (cards the set does not account for), in the
        table's language; how to enter them is the screen's to say."""
        card_names = {c.id: c.name for c in self.cards.cards.values()}
        return [
            source_words(note, card_names)
            for key, note in self.cards.missing.items()
            if key.startswith(("stacks.", "modules."))
        ]

    def modifiers(self) -> list[ModifierRow]:
        """The Modifier cards entered: all 16 (in the card file) or those entered so far."""
        out = []
        for m in self.file.get("modifiers") or self.modifier_draft:
            words = _ability_words(m.get("ability"))
            out.append(ModifierRow(m["id"], m["value"], m.get("name") or m["id"], words, m.get("source", "")))
        return out

    @property
    def has_modifiers(self) -> bool:
        return bool(self.file.get("modifiers"))

    # ---- the table's edits ----------------------------------------------------------

    def _edit(self, entries: list[dict]) -> None:
        trial = merged_cards_file(self.file, entries, "2023")
        self.cards = self._build(trial)
        self.file = trial

    def new_id(self, name: str) -> str:
        base = _slug(name)
        ident, n = base, 2
        while ident in self.cards.cards:
            ident, n = f"{base}_{n}", n + 1
        return ident

    def add_card(
        self,
        name: str,
        effect: str,
        stack: int | None,
        copies: int | None,
        params: dict | None = None,
        module: str | None = None,
        text: str = "",
        placement: int | None = None,
    ) -> str:
        """A card found in the box; returns its id. Refused naming the field and rule."""
        name = name.strip()
        if not name:
            raise RuleFileError(_("A new card needs its name (as printed on the card)"))
        if effect not in EFFECT_SPECS:
            raise RuleFileError(_("Choose the card's effect from the list ({effect} is not one)").format(effect=effect))
        entry = {
            "id": self.new_id(name),
            "name": name,
            "effect": effect,
            "stack": stack,
            "copies": copies,
            "params": {k: v for k, v in (params or {}).items() if v is not None},
            "source": "our card",
        }
        if module:
            entry["module"] = module
        if text.strip():
            entry["text"] = text.strip()
        if placement is not None:
            entry["placement"] = placement
        for key in ("stack", "copies"):
            if entry[key] is None:
                raise RuleFileError(
                    _("{card} needs its {field} (read it off the card and the box)").format(
                        card=name, field=_(NEW_CARD_FIELDS[key])
                    )
                )
        self._edit([entry])
        return entry["id"]

    def set_card(self, cid: str, **fields) -> None:
        """A listed card's stack, copies, params (merged) or placement, from the table's card."""
        if cid not in self.cards.cards:
            raise RuleFileError(f"card file: cards[{cid}]: not a card of the set")
        entry = {"id": cid, **{k: v for k, v in fields.items() if v is not None}, "source": "our card"}
        if "params" in entry:
            entry["params"] = {k: v for k, v in entry["params"].items() if v is not None}
        self._edit([entry])

    def forget(self, cid: str) -> None:
        """Takes back what the table entered about a card (a card it added goes away)."""
        trial = {**self.file, "cards": [c for c in self.file.get("cards", []) if c.get("id") != cid]}
        self.cards = self._build(trial)
        self.file = trial

    def save(self) -> None:
        write_json(cards_path(), self.file)
        if self.modifier_draft:
            write_json(modifiers_draft_path(), self.modifier_draft)
        else:
            modifiers_draft_path().unlink(missing_ok=True)

    # ---- Power Shift's Modifier cards -------------------------------------------------

    def add_modifier(self, value: int, name: str = "", effect: str | None = None, params: dict | None = None) -> str:
        """One Modifier card from the box: its number (+/-), and its ability if it has one.
        Checked like the card file's modifiers; the 16th moves them all into the card file."""
        entered = list(self.file.get("modifiers") or self.modifier_draft)
        if len(entered) >= MODIFIER_SET:
            raise RuleFileError(
                f"card file: modifiers: Power Shift has {MODIFIER_SET} Modifier cards, all entered "
                "(remove one to change it)"
            )
        ident = _slug(f"modifier {'plus' if value > 0 else 'minus'} {abs(value)}")
        taken = {m["id"] for m in entered}
        n = 1
        while f"{ident}_{n}" in taken:
            n += 1
        shown = f"{'+' if value > 0 else '−'}{abs(value)}"
        card = {
            "id": f"{ident}_{n}",
            "value": value,
            "name": name.strip() or shown,
            "ability": None
            if not effect
            else {"effect": effect, "params": {k: v for k, v in (params or {}).items() if v is not None}},
            "source": "our card",
        }
        self._set_modifiers(entered + [card])
        return card["id"]

    def remove_modifier(self, mid: str) -> None:
        entered = list(self.file.get("modifiers") or self.modifier_draft)
        self._set_modifiers([m for m in entered if m.get("id") != mid])

    def _set_modifiers(self, entered: list[dict]) -> None:
        _check_modifiers(entered)
        if len(entered) == MODIFIER_SET:
            trial = {**self.file, "modifiers": entered}
            self.cards = self._build(trial)
            self.file, self.modifier_draft = trial, []
        else:
            self.file = {k: v for k, v in self.file.items() if k != "modifiers"}
            self.modifier_draft = entered

    # ---- export and import ----------------------------------------------------------

    def export(self, path: Path | None = None) -> Path:
        """The card file, to copy to another tablet (the exports folder unless a path is given)."""
        path = Path(path) if path else exports_folder() / EXPORT_NAME
        out = {
            "rules": "2023",
            "name": self.file.get("name") or "Our El Grande 2023 cards",
            **{k: v for k, v in self.file.items() if k not in ("rules", "name")},
        }
        try:
            write_json(path, out)
        except OSError as exc:
            words = _("{file}: cannot be written ({why})")
            raise RuleFileError(words.format(file=path.name, why=exc.strerror or exc)) from None
        return path

    def import_file(self, path: Path) -> None:
        """Another tablet's card file in place of this one: checked whole first; a mistake is
        refused with its one line and this set is left as it was."""
        path = Path(path)
        if not path.is_file():
            raise RuleFileError(_("{file}: no such file").format(file=path.name))
        data = read_json(path)
        if not isinstance(data, dict):
            raise RuleFileError(_("{file}: not a card file (a card file holds one JSON object)").format(file=path.name))
        if data.get("rules", "2023") != "2023":
            words = _("{file}: the file is for the {rules} rules, but this is the 2023 card set")
            raise RuleFileError(words.format(file=path.name, rules=repr(data.get("rules"))))
        cards = self._build(data)
        self.cards, self.file = cards, copy.deepcopy(data)
        if data.get("modifiers"):
            self.modifier_draft = []


def _check_modifiers(entered: list[dict]) -> None:
    """Modifier cards entered so far, checked as the card file's list of 16 is (fewer are
    checked card by card: the list is filled up with plain +1 cards for the check)."""
    from engine.rules.edition_2023.power_shift import ModifierDataError, parse_modifiers

    filler = [
        {"id": f"not_entered_yet_{i}", "value": 1, "ability": None, "source": "check"}
        for i in range(MODIFIER_SET - len(entered))
    ]
    try:
        parse_modifiers(entered + filler, allow_stand_in=False)
    except ModifierDataError as exc:
        raise RuleFileError(f"card file: {exc}") from None


def import_candidates() -> list[Path]:
    """Card files the table may import: JSON files in the exports folder, Downloads and Documents."""
    folders = [exports_folder()]
    try:
        import platformdirs

        folders += [Path(platformdirs.user_downloads_dir()), Path(platformdirs.user_documents_dir())]
    except Exception:  # no such folders on this system: the exports folder is enough
        pass
    found = []
    for folder in folders:
        try:
            found += sorted(p for p in folder.glob("*.json") if p.is_file())
        except OSError:
            continue
    return found


def remember_card_entries(entries: list[dict]) -> str:
    """Cards the table entered during a game (CardSetCompleted's entries), kept in its card file
    for the next games. '' when kept; else why not, in one line (the game has them either way)."""
    try:
        cards = CardSetDraft.load()
        cards._edit([dict(e) for e in entries])
        cards.save()
    except (RuleFileError, OSError) as exc:
        return _("Not kept in Your cards: {why}").format(why=exc)
    return ""
