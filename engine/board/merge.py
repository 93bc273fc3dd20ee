"""The table's own board and card files merged into the shipped data, before it is validated like
the shipped files: a field given corrects the shipped one, a new card id adds a card. The card
merge is shared with King and Intrigue's card files (engine/rules/king_intrigue/cards.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from .errors import BoardFileError, CardFileError

Fail = Callable[[str], NoReturn]  # raises the file's error, the message its one line

# A card file's extra section, registered by the rule system that reads it (engine/__init__.py
# imports them all) -> fn(its JSON) -> what is wrong with it, or None.
CARD_FILE_SECTIONS: dict[str, Callable[[Any], str | None]] = {}


_TABLE_BOARD_FIELDS = (
    "rules",
    "side",
    "name",
    "regions",
    "spaces",
    "castillo",
    "scoring_tiles",
    "power_cards",
    "provenance",
)
_TABLE_ENTRY_FIELDS = {
    "regions": ("id", "name", "scoreboard", "neighbours"),
    "spaces": ("id", "name", "neighbours"),
    "castillo": ("name", "scoreboard"),
}


def _table_note(table: dict[str, Any], path: str) -> str:
    note = (table.get("provenance") or {}).get(path)
    return f"table: {note}" if isinstance(note, str) and note else "table"


def _merge_entries(raw: dict[str, Any], table: dict[str, Any], kind: str, given: list[str], fail: Fail) -> None:
    entries = table.get(kind, [])
    if not isinstance(entries, list):
        fail(f'{kind}: must be a list of {{"id": ..., field: value}} entries')
    by_id = {e["id"]: e for e in raw.get(kind, [])}
    for n, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            fail(f'{kind}[{n}]: needs an "id" naming one of the board\'s {kind}')
        if ident not in by_id:
            fail(f"{kind}[{ident}]: not one of the board's {kind} ({', '.join(by_id) or 'none'})")
        for key, value in entry.items():
            if key not in _TABLE_ENTRY_FIELDS[kind]:
                fail(
                    f"{kind}[{ident}].{key}: unknown field (a board file may give: "
                    f"{', '.join(_TABLE_ENTRY_FIELDS[kind][1:])})"
                )
            if key != "id":
                _given(value, f"{kind}[{ident}].{key}", fail)
                by_id[ident][key] = value
                given.append(f"{kind}.{ident}.{key}")


_GIVEN_WORDS = "a board or card file gives values; leave a field out to keep the shipped one"


def _given(value: Any, where: str, fail: Fail) -> None:
    if value is None:
        fail(f"{where}: {_GIVEN_WORDS}")


def merge_board_file(raw: dict[str, Any], table: Any) -> dict[str, Any]:
    def fail(message: str) -> NoReturn:
        raise BoardFileError(f"board file: {message}")

    table = file_object(table, fail)
    for key in table:
        if key not in _TABLE_BOARD_FIELDS:
            fail(
                f"{key}: unknown field or one a table cannot change (a board file may give: "
                f"{', '.join(_TABLE_BOARD_FIELDS)})"
            )
    for key in ("rules", "side"):
        if key in table and table[key] != raw.get(key, "classic"):
            fail(f"{key}: the file is for {key} {table[key]!r}, but this game uses {raw.get(key, 'classic')!r}")
    given: list[str] = []
    _merge_entries(raw, table, "regions", given, fail)
    _merge_entries(raw, table, "spaces", given, fail)
    for key, value in (table.get("castillo") or {}).items():
        if key not in _TABLE_ENTRY_FIELDS["castillo"]:
            fail(f"castillo.{key}: unknown field (a board file may give: name, scoreboard)")
        _given(value, f"castillo.{key}", fail)
        raw["castillo"][key] = value
        given.append(f"castillo.{key}")
    for kind in ("scoring_tiles", "power_cards"):
        entries = table.get(kind, {})
        if not isinstance(entries, dict):
            fail(f"{kind}: must be an object")
        for key, value in entries.items():
            if str(key) not in {str(k) for k in raw.get(kind, {})}:
                known = ", ".join(map(str, raw.get(kind, {}))) or "none"
                fail(f"{kind}.{key}: not one of the board's {kind} ({known})")
            _given(value, f"{kind}.{key}", fail)
            raw[kind][str(key)] = value
            given.append(f"{kind}.{key}")
    if "name" in table:
        raw["name"] = table["name"]
    notes = table.get("provenance", {})
    if not isinstance(notes, dict) or any(p not in given for p in notes):
        stray = next((p for p in notes if p not in given), None) if isinstance(notes, dict) else None
        fail(f"provenance{'.' + stray if stray else ''}: notes only facts the file gives")
    raw.setdefault("provenance", {})
    raw.setdefault("missing", {})
    for path in given:
        if path.endswith(".name"):
            continue
        raw["missing"].pop(path, None)
        raw["provenance"][path] = _table_note(table, path)
    return raw


# A card's merge: (the shipped card of an entry's id, or None for a new id; the entry) -> the card
# that id names from now on, or None to leave it as it was.
CardMerge = Callable[[dict[str, Any] | None, dict[str, Any]], dict[str, Any] | None]


@dataclass(frozen=True)
class CardList:
    """How a kind of card file lists its cards, in the words its refusals use."""

    key: str  # the file's list of cards: "cards", "power_cards"
    fields: tuple[str, ...]  # the fields an entry may give
    id_does: str  # what an entry's id does, said when it has none
    given_words: str  # the refusal of a field given as null, after "where: "
    params_given: bool  # parameters given as null are refused too
    empty_id: bool  # an empty id counts as none


def merge_cards(cards: list[dict[str, Any]], entries: Any, kind: CardList, fail: Fail, merge: CardMerge) -> None:
    """Check each entry of a table's card list and merge it: `merge(card, entry)` gets the shipped
    card of the entry's id, or None for a new id."""
    if not isinstance(entries, list):
        fail(f"{kind.key}: must be a list of cards")
    shipped = {c["id"]: c for c in cards}
    for n, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str) or (kind.empty_id and not ident):
            fail(f'{kind.key}[{n}]: needs an "id" ({kind.id_does}; a new id adds a card)')
        for key, value in entry.items():
            where = f"{kind.key}[{ident}].{key}"
            if key not in kind.fields:
                fail(f"{where}: unknown field (card fields: {', '.join(kind.fields)})")
            if value is None and key != "module":
                fail(f"{where}: {kind.given_words}")
            if kind.params_given and key == "params" and isinstance(value, dict):
                for pname, pvalue in value.items():
                    _given(pvalue, f"{where}.{pname}", fail)
        card = merge(shipped.get(ident), entry)
        if card is not None:
            shipped[ident] = card


def set_card_fields(card: dict[str, Any], entry: dict[str, Any], fail: Fail, where: str) -> None:
    """An entry's fields onto a card (its id and source aside): a new effect drops the old one's
    parameters, parameters merge one by one, and a field given is no longer missing."""
    missing = card.setdefault("missing", {})
    if "effect" in entry and entry["effect"] != card.get("effect"):
        card["params"] = {}
        for key in [k for k in missing if k.startswith("params.")]:
            missing.pop(key)
    for key, value in entry.items():
        if key in ("id", "source"):
            continue
        if key == "params":
            if not isinstance(value, dict):
                fail(f"{where}.params: must be an object of parameter: value")
            card["params"] = {**card.get("params", {}), **value}
            for pname in value:
                missing.pop(f"params.{pname}", None)
        else:
            card[key] = value
            missing.pop(key, None)


def check_rules(table: dict[str, Any], rules: str, fail: Fail) -> None:
    """A table's file names the rules of the game it is for, if it names any."""
    if "rules" in table and table["rules"] != rules:
        fail(f"rules: the file is for the {table['rules']!r} rules, but this game uses {rules!r}")


def file_object(table: Any, fail: Fail) -> dict[str, Any]:
    if not isinstance(table, dict):
        fail(f"must be a JSON object, not {type(table).__name__}")
    return table


_TABLE_CARDS = CardList(
    key="cards",
    fields=("id", "stack", "copies", "name", "text", "effect", "params", "source", "module", "placement"),
    id_does="a shipped card's id corrects it",
    given_words=_GIVEN_WORDS,
    params_given=True,
    empty_id=False,
)


def merge_card_file(raw: dict[str, Any], table: Any, spade_printed: bool = True) -> dict[str, Any]:
    def fail(message: str) -> NoReturn:
        raise CardFileError(f"card file: {message}")

    table = file_object(table, fail)
    for key in table:
        if key not in ("rules", "name", "cards", "modifiers"):
            fail(f"{key}: unknown field (a card file may give: rules, name, cards, modifiers)")
    if "modifiers" in table:
        # Power Shift's Modifier cards: not Action cards; kept in the setup's card file and
        # read by engine/rules/edition_2023/power_shift.py when the game starts. Checked here too,
        # by the check that module registers (CARD_FILE_SECTIONS), so a mistake is named when
        # the file is loaded.
        problem = CARD_FILE_SECTIONS["modifiers"](table["modifiers"])
        if problem is not None:
            fail(problem)
    check_rules(table, raw.get("rules", "classic"), fail)

    def merge(card: dict[str, Any] | None, entry: dict[str, Any]) -> None:
        if card is None:
            _add_card(raw, entry, fail, spade_printed)
        else:
            _correct_card(card, entry, fail, spade_printed)

    merge_cards(raw["cards"], table.get("cards", []), _TABLE_CARDS, fail, merge)
    return raw


def _correct_card(card: dict[str, Any], entry: dict[str, Any], fail: Fail, spade_printed: bool = True) -> None:
    changed = [k for k in entry if k not in ("id", "source")]
    set_card_fields(card, entry, fail, f"cards[{card['id']}]")
    missing = card["missing"]
    if card.get("module") is None and "placement" not in entry and card.get("placement", 0) is None:
        card.pop("placement")  # a base card places what its stack's cards place
        missing.pop("placement", None)
    if spade_printed:
        _placement_printed(card)  # a listed card the table found in the ♠ stack
    note = f"table ({', '.join(changed)}{': ' + entry['source'] if entry.get('source') else ''})"
    card["source"] = f"{note}; {card.get('source', '')}".rstrip("; ")


def _add_card(raw: dict[str, Any], entry: dict[str, Any], fail: Fail, spade_printed: bool = True) -> None:
    # 2023: a card found in the box may leave its copies out (its stack is face down: it turns up
    # while the stack has room); the classic stacks are full, so every card gives its copies
    needs = [
        k
        for k in ("stack", "copies", "name", "effect")
        if k not in entry and (k != "copies" or raw.get("rules") != "2023")
    ]
    if needs:
        fail(
            f"cards[{entry['id']}]: a new card needs {', '.join(needs)} (it is not a shipped card's id; "
            f"shipped: {', '.join(c['id'] for c in raw['cards'])})"
        )
    card = {**entry, "params": entry.get("params", {})}
    card["source"] = f"table: {entry['source']}" if entry.get("source") else "table"
    card["missing"] = {}
    if "copies" not in entry:  # a stack's cards are face down: nobody counts them during a game
        card["copies"] = None
        card["missing"]["copies"] = (
            f'How many "{entry["name"]}" cards the box has was not entered: it turns up '
            f"while its stack has room (card file: cards[{entry['id']}].copies)"
        )
    if spade_printed:
        _placement_printed(card)
    raw["cards"].append(card)


def _placement_printed(card: dict[str, Any]) -> None:
    """A ♠ card's Caballeros are printed on it, not given by its stack: unknown until entered.
    (Games saved before rules revision 3 gave a ♠ card entered without them its stack's, and
    replay so: `spade_printed` False.)"""
    if card.get("module") == "new-regency" and "placement" not in card:
        card["placement"] = None
        card.setdefault("missing", {})["placement"] = (
            f'How many Caballeros "{card.get("name", card["id"])}" places is printed on the card: enter it '
            f"(card file: cards[{card['id']}].placement)"
        )
