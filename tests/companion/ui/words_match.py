"""A scenario's English words found in the language in use (a catalogue run in German taps
"Neues Spiel" where its scenario says "New game").

A scenario names a button or a line by a fragment of its English message ("Day: dark" of "Day:
dark words on the board's paper"). In another language that fragment is looked up among the
catalogue's English messages: each message holding it gives a pattern of its translation (its
placeholders any words), and the widget's words match when one of those patterns is in them."""

from __future__ import annotations

import functools
import re

from companion.words import _, language
from companion.words.catalogue import translations

PLACEHOLDER = re.compile(r"\{[a-z_0-9]*(?:![rs])?(?::[^}]*)?\}")


def _pattern(translated: str, flags: int = 0) -> re.Pattern:
    # a card's text is shown without its full stop, a title without its "!"
    pieces = PLACEHOLDER.split(translated.rstrip(".!"))
    return re.compile(".+?".join(re.escape(piece) for piece in pieces), re.DOTALL | flags)


def _literal(words: str) -> bool:
    """A translation with words of its own (not "{who}: {what}", which any line would match)."""
    return len(PLACEHOLDER.sub("", words).strip(" :·,.()-")) >= 3


@functools.lru_cache(maxsize=4096)
def patterns(fragment: str, code: str, flags: int = 0) -> tuple[re.Pattern, ...]:
    """What `fragment` of an English message reads like in `code` (English: itself)."""
    literal = (_pattern(fragment, flags) if PLACEHOLDER.search(fragment) else re.compile(re.escape(fragment), flags),)
    if code == "en" or not fragment:
        return literal
    exact = _(fragment)
    found = [_pattern(exact, flags)] if exact != fragment else []
    catalog = getattr(translations(code), "_catalog", {})
    folded = fragment.casefold() if flags & re.IGNORECASE else fragment
    for key, words in catalog.items():
        english = key[0] if isinstance(key, tuple) else key.rpartition("\x04")[2]
        if flags & re.IGNORECASE:
            english = english.casefold()
        if english and folded in english and words and words != exact and _literal(words):
            found.append(_pattern(words, flags))
    return tuple(found) or _with_names(fragment, code, flags) or literal  # a name, a number: the same anywhere


@functools.lru_cache(maxsize=4096)
def exactly(message: str, code: str) -> frozenset[str]:
    """The words an English `message` may be shown as in `code`: its translation, or the
    translation of a name of that spelling (a card, a place, a colour, a rule set)."""
    if code == "en":
        return frozenset((message,))
    found = {_(message)}
    catalog = getattr(translations(code), "_catalog", {})
    for key, words in catalog.items():
        if isinstance(key, str) and key.rpartition("\x04")[2] == message and "\x04" in key and words:
            found.add(words)
    return frozenset(found)


def is_(words: str, message: str) -> bool:
    """Whether `words` are the English `message` (or a name spelled so) in the language in use."""
    return words in exactly(message, language())


def _with_names(fragment: str, code: str, flags: int) -> tuple[re.Pattern, ...]:
    """A fragment holding a colour, a place or a card by its English name ("Green: no veto"): the
    messages with a placeholder where the name is ("{who}: no veto"), read in `code`, the name in
    `code` in its place."""
    catalog = getattr(translations(code), "_catalog", {})
    found = []
    for english, translated in _names(code).items():
        at = fragment.find(english)
        if at < 0:
            continue
        before, after = fragment[:at], fragment[at + len(english) :]
        shape = re.compile(re.escape(before) + r"\{[a-z_]+\}" + re.escape(after), flags)
        for key, words in catalog.items():
            message = key[0] if isinstance(key, tuple) else key.rpartition("\x04")[2]
            if words and isinstance(words, str) and shape.search(message):
                placeholder = shape.search(message).group(0)[len(before) : -len(after) or None]
                filled = words.rstrip(".!").replace(placeholder, "\x00")
                pieces = [PLACEHOLDER.split(part) for part in filled.split("\x00")]
                found.append(
                    re.compile(
                        re.escape(translated).join(".+?".join(re.escape(p) for p in part) for part in pieces),
                        re.DOTALL | flags,
                    )
                )
    return tuple(found)


@functools.lru_cache(maxsize=8)
def _names(code: str) -> dict[str, str]:
    """English colour, place and card names and their words in `code`, the longest first."""
    catalog = getattr(translations(code), "_catalog", {})
    named = {}
    for key, words in catalog.items():
        if isinstance(key, str) and key.partition("\x04")[0] in ("colour", "place", "card") and "\x04" in key:
            named[key.partition("\x04")[2]] = words
    return dict(sorted(named.items(), key=lambda kv: -len(kv[0])))


def says(words: str, fragment: str, any_case: bool = False) -> bool:
    """Whether `words` (a widget's, in the language in use) hold the English `fragment`'s message."""
    return any(p.search(words) for p in patterns(fragment, language(), re.IGNORECASE if any_case else 0))


def any_says(texts, fragment: str) -> bool:
    """Whether one of `texts` holds the English `fragment`'s message."""
    return any(says(words, fragment) for words in texts)


def before_rule(message: str) -> str:
    """A refusal's own words, without the rule it cites ("... (rule: ...)" in any language)."""
    cited = _("{detail} (rule: {rule})")
    marker = cited.partition("{detail}")[2].partition("{rule}")[0]
    return message.split(marker)[0]


def said(message: str, **values) -> str:
    """The English `message` as the app says it now, its values filled in (names stay names)."""
    return _(message).format(**values)


def colour(colour_id: str) -> str:
    """A player colour as the app says it now ("Gelb" for yellow in German)."""
    from companion.words.colours import colour_word

    return colour_word(colour_id)


# Words of English no German, Spanish or French sentence holds ("has" is Spanish too, "a" and "in"
# are everyone's): two of them in one line are English left in a screen of another language.
ENGLISH_ONLY = frozenset(
    "the and your their from with is of to you this each are not for be will can there what which "
    "who it its his her them they".split()
)
WORD = re.compile(r"[A-Za-z']+")


def english_left(words: str, names: tuple[str, ...] = ()) -> bool:
    """Whether `words`, shown in another language, still hold an English sentence (a player's
    typed name, in `names`, does not count)."""
    for name in names:
        words = words.replace(name, " ")
    found = {w.lower() for w in WORD.findall(words)} & ENGLISH_ONLY
    return len(found) >= 2


def english_on_screen(widgets, visible, names: tuple[str, ...] = ()) -> list[str]:
    """The shown words of `widgets` (a screen's labels and buttons) still in English."""
    from kivy.uix.label import Label

    return sorted(
        {w.text for w in widgets if isinstance(w, Label) and w.text and visible(w) and english_left(w.text, names)}
    )


def throw_button(colour_id: str) -> str:
    """The simulated tower's button throwing a cube of `colour_id`, in the language in use."""
    if language() == "en":
        return f"Throw a {colour_id} cube"
    from companion.ui.widgets.teach_panel import colour_word

    return said("Throw a {colour} cube (simulated tower)", colour=colour_word(colour_id))
