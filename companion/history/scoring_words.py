"""A scoring as the table reads it: the engine titles its scorings in English ("General scoring
after round 3", "Intrigue (the Castillo), played by Ana"; engine/effects); these read a title back
into the table's language. Pure."""

from __future__ import annotations

import re

from companion.words import N_, _, names

SPECIAL_TITLE = re.compile(r"^(?P<card>.+?) \((?P<what>.+)\), played by (?P<who>.+)$")
GENERAL_TITLE = re.compile(r"^General scoring after round (?P<round>\d+)")
FREE_TITLE = re.compile(r"^Special scoring: (?P<what>.+)$")  # engine/freeplay.py: the scoring-only mode

# What a special scoring paid for, as the engine titles it (engine/effects): read back into the
# table's words (anything else is shown as the engine wrote it).
_SCORED_WHAT = [
    (re.compile(r"^1st place only, all regions$"), N_("1st place only, all regions")),
    (re.compile(r"^the Castillo; all is thrown back in$"), N_("the Castillo; all is thrown back in")),
    (re.compile(r"^the Castillo$"), N_("the Castillo")),
    (re.compile(r"^regions chosen exactly once: (?P<areas>.+)$"), N_("regions chosen exactly once: {areas}")),
    (re.compile(r'^all "(?P<group>.+)" regions$'), N_('all "{group}" regions')),
    (re.compile(r"^region\(s\) with the most Caballeros$"), N_("region(s) with the most Caballeros")),
    (re.compile(r"^region\(s\) with the fewest Caballeros$"), N_("region(s) with the fewest Caballeros")),
    (re.compile(r"^(?P<area>.+), chosen by (?P<who>.+)$"), N_("{area}, chosen by {who}")),
    (re.compile(r"^every region, first place only$"), N_("every region, first place only")),
    (re.compile(r"^the regions with the most Caballeros$"), N_("the regions with the most Caballeros")),
    (re.compile(r"^the regions with the fewest Caballeros$"), N_("the regions with the fewest Caballeros")),
]


def scoring_what(what: str) -> str:
    """What a special scoring's title says it paid for, in the table's language."""
    for pattern, words in _SCORED_WHAT:
        match = pattern.match(what)
        if match:
            values = match.groupdict()
            if "area" in values:
                values["area"] = names.place(values["area"])
            if "areas" in values:  # "Aragón, Valencia": each as the table's edition prints it
                values["areas"] = ", ".join(names.place(area) for area in values["areas"].split(", "))
            return _(words).format(**values)
    return names.place(what)  # a region's printed name, or the engine's words


def scoring_title(title: str) -> str:
    """A scoring's title as the engine wrote it ("General scoring after round 3", "Intrigue (the
    Castillo), played by Ana") in the table's language."""
    general = GENERAL_TITLE.match(title)
    if general and general.end() == len(title):
        return _("General scoring after round {round}").format(round=general["round"])
    free = FREE_TITLE.match(title)
    if free:
        return _("Special scoring: {what}").format(what=scoring_what(free["what"]))
    special = SPECIAL_TITLE.match(title)
    if special:
        return _("{card} ({what}), played by {who}").format(
            card=names.card(special["card"]), what=scoring_what(special["what"]), who=special["who"]
        )
    return title
