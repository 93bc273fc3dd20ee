"""The words the club board sends its pages as a message and its values (errors.Reason), so
each page says them in its own language: the board's link to the broker, why a result is not
counted, why a hall's message is not taken, and the broker's own sentences (link_words)."""

from __future__ import annotations

from companion.club.halls import MISROUTES
from companion.club.tournament import MISFITS
from companion.words import N_
from companion.words.link_words import MESSAGES as LINK_MESSAGES

# The board's link to the broker, as its banner says it (Reason: in each page's language).
STATUS = {
    "connecting": N_("connecting to {address}"),
    "subscribed": N_("subscribed to club {club} at {address}"),
    "lost": N_("lost the broker ({reason}); retrying"),
}
# Words the board's server sends the pages as a message and its values (Reason.as_json): each
# page carries them in every language, as its own t("...") messages.
SENT_WORDS = (*STATUS.values(), *MISFITS.values(), *MISROUTES.values(), *LINK_MESSAGES)
