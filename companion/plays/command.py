"""The command line's plays: `elgrande export GAME|last --bgstats-link` (BG Stats' push link,
printed), `elgrande backup FILE` and `elgrande restore FILE` (companion.plays.backup)."""

from __future__ import annotations

from collections.abc import Callable

from companion.words import _


def add_link_option(group) -> None:
    """--bgstats-link, among `elgrande export`'s choices of what to write."""
    group.add_argument(
        "--bgstats-link",
        action="store_true",
        help=_("print BG Stats' link that logs the play: a phone that opens it fills the play in BG Stats"),
    )


def print_link(record, usage: Callable[[str], Exception]) -> int:
    """The link on one line; an unfinished or damaged game: one line, exit 2 (usage)."""
    from companion.plays.bgstats import ExportError, push_link

    try:
        print(push_link(record))
    except ExportError as exc:
        raise usage(str(exc)) from None
    return 0
