"""The engine's refusals in the table's language.

The engine speaks no language: a RuleViolation is a rule id (a key of engine.errors.RULES) and a
sentence in no language yet (engine.errors.Said: an English template and named values). Here it
becomes words: the template and the rule's reading are catalogue messages (domain "refusals"),
and each value is shown by its kind: a Place or a Card as the table's edition prints it
(companion.words.names), what a card says in the team's words, a phrase of the engine's own
(a Said inside) translated in turn, a list item by item, a number as a number, an id or a
player's name as it is. In English the words are exactly the engine's (`str(exc)`, `.detail`).

`lang`: a language code to speak in instead of the table's (a phone page follows its browser)."""

from __future__ import annotations

import gettext
from typing import Any

from companion.words import names
from companion.words.catalogue import language, translations
from companion.words.sources import source_words
from engine.errors import CITED, RULES, Card, CardText, Place, Plural, RuleViolation, Said

LIST_SEPARATOR = ", "  # the same in every language the app speaks


def _lookup(lang: str | None) -> gettext.NullTranslations:
    return translations(lang or language())


def _value(value: Any, t: gettext.NullTranslations) -> Any:
    if isinstance(value, Said):
        return _said(value, t)
    if isinstance(value, Place):
        return t.pgettext(names.PLACE, str(value))
    if isinstance(value, Card):
        return t.pgettext(names.CARD, str(value))
    if isinstance(value, CardText):
        return t.pgettext(names.CARD_TEXT, str(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return LIST_SEPARATOR.join(str(_value(v, t)) for v in items)
    return value


def _said(said: Said, t: gettext.NullTranslations) -> str:
    template = said.template
    if isinstance(template, Plural):
        text = t.ngettext(template.singular, template.plural, said.values[template.key])
    else:
        text = t.gettext(template)
        if text == template and not said.values and type(t) is not gettext.NullTranslations:
            text = _data_note(template, t)
    return text.format(**{key: _value(v, t) for key, v in said.values.items()})


def _data_note(template: str, t: gettext.NullTranslations) -> str:
    """A refusal in a data file's own words (engine.errors.fact_refusal: its "missing" note), as
    the note reads in `t`'s language (a template still: its braces doubled)."""
    note = template.replace("{{", "{").replace("}}", "}")
    return source_words(note, t=t).replace("{", "{{").replace("}", "}}")


def said_words(said: Said | str, lang: str | None = None) -> str:
    """A sentence of the engine's (a refusal's detail, a player's private reason) in words; any
    other text as it is."""
    return _said(said, _lookup(lang)) if isinstance(said, Said) else str(said)


def rule_reading(rule: str, lang: str | None = None) -> str:
    """The rule a refusal cites, as a table would say it."""
    return _lookup(lang).gettext(RULES[rule])


def refusal_words(error: RuleViolation, lang: str | None = None) -> str:
    """Why the engine refused, and the rule it cites: the public words, what everyone may read
    (the reason only its player may read is `private_words`)."""
    t = _lookup(lang)
    return t.gettext(CITED).format(detail=_said(error.detail, t), rule=t.gettext(RULES[error.rule]))


def private_words(error: RuleViolation, lang: str | None = None) -> tuple[str, str] | None:
    """(the player's id, why in words for them alone) when the reason is their secret, else None."""
    if not error.private:
        return None
    player, why = error.private
    return player, said_words(why, lang)
