"""Every word the table reads, in the table's language.

The words live in GNU gettext catalogues, companion/locale/<lang>/LC_MESSAGES/<domain>.po (one
domain per part of the app, so each part's words can be read and translated on their own; all
domains are merged into one lookup). English is the source language: a msgid is the English
sentence, with named placeholders ("{who} plays {card}"), so an English table needs no catalogue.

    from companion.words import _, ngettext, pgettext, N_

    _("Home")                                       # a word on screen
    _("{who} plays {card}").format(who=..., card=...)
    ngettext("{n} Caballero", "{n} Caballeros", n).format(n=n)   # plural by the language's rule
    pgettext("region", "Sevilla")                   # a name, told apart by its context
    N_("Day")                                       # marked for the catalogue, translated at use

The language is chosen once (choice.py: ELGRANDE_LANG, the kept setting, the system's) and can
change at run time (use_language); `_` always reads the language in use now."""

from companion.words.catalogue import (
    LANGUAGES,
    N_,
    _,
    language,
    ngettext,
    npgettext,
    pgettext,
    use_language,
)

__all__ = ["LANGUAGES", "N_", "_", "language", "ngettext", "npgettext", "pgettext", "use_language"]
