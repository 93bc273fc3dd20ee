"""The served pages' words: which language a browser reads, the dictionary written into a page
(every form of a plural message, by the language's own rule), and the page given to one reader."""

from __future__ import annotations

import json

from companion.web.words import (
    accepted_language,
    dictionary,
    for_reader,
    page_messages,
    plural_expression,
    with_words,
)

PAGE = b"""<html lang="en"><script>/*PAGE_WORDS*/
t("Confirm"); fill(t("{colour} \\u00b7 round {n}"), {}); nt("Tap {n} more", "Tap {n} more", 3);
nt("Confirm this {n} card", "Confirm these {n} cards", 1);</script></html>"""


def test_the_browsers_language_by_its_weights():
    assert accepted_language("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert accepted_language("en-GB,fr;q=0.9") == "en"
    assert accepted_language("it-IT,it;q=0.9,es;q=0.5,fr;q=0.4") == "es"  # the first the app speaks
    assert accepted_language("fr;q=0.2,de;q=0.7") == "de"
    assert accepted_language("de;q=0,es") == "es"  # q=0: not wanted
    assert accepted_language("") == accepted_language(None) == accepted_language("xx, ;q=") == "en"


def test_a_pages_messages_are_its_t_and_nt_calls():
    singles, plurals = page_messages(PAGE.decode())
    assert singles == ["Confirm", "{colour} · round {n}"]
    assert plurals == [("Tap {n} more", "Tap {n} more"), ("Confirm this {n} card", "Confirm these {n} cards")]


def test_the_dictionary_holds_every_plural_form_by_the_languages_rule():
    words = dictionary("fr", ["Confirm"], [("Confirm this {n} card", "Confirm these {n} cards")])
    assert words["Confirm"] == "Confirmer"
    one, many, other = words["Confirm this {n} card"]  # French: 0 and 1 take the first form
    assert one == "Confirmer cette {n} carte" and other == "Confirmer ces {n} cartes"
    assert plural_expression("fr").startswith("(n == 0 || n == 1) ? 0")
    assert plural_expression("de") == "(n != 1)" and plural_expression("en") == "n != 1"
    assert len(dictionary("de", [], [("Tap {n} more", "Tap {n} more")])["Tap {n} more"]) == 2


def test_the_page_holds_every_language_and_the_readers_guess():
    page = with_words(PAGE)
    assert b"/*PAGE_WORDS*/" not in page
    data = json.loads(page.decode().split("var WORDS = ", 1)[1].split(";\nvar PLURAL", 1)[0])
    assert data["words"]["de"]["Confirm"] == "Bestätigen" and data["words"]["es"]["Confirm"] == "Confirmar"
    assert data["words"]["fr"]["{colour} · round {n}"] == "{colour} · manche {n}"
    assert '"fr": function (n) { return +((n == 0 || n == 1) ? 0' in page.decode()
    mine = for_reader(page, "es").decode()
    assert mine.startswith('<html lang="es">') and 'var GUESSED = "es";' in mine


def test_a_readers_language_is_spoken_in_its_own_thread_only():
    import threading

    from companion.words import _, language
    from companion.words.catalogue import speaking

    seen = {}
    with speaking("de"):
        other = threading.Thread(target=lambda: seen.update(lang=language(), word=_("Confirm")))
        other.start()
        other.join()
        assert (language(), _("Confirm")) == ("de", "Bestätigen")
        with speaking("fr-CA"):
            assert _("Confirm") == "Confirmer"
        assert _("Confirm") == "Bestätigen"
    assert seen == {"lang": "en", "word": "Confirm"} and language() == "en"
