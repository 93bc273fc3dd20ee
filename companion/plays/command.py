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


def cmd_backup(args, usage: Callable[[str], Exception]) -> int:
    from pathlib import Path

    from companion.plays.backup import BackupRefused, backup

    try:
        done = backup(Path(args.file))
    except BackupRefused as exc:
        raise usage(str(exc)) from None
    print(done.words())
    return 0


def _ask(plan) -> bool | None:
    """The person's answer to a restore's question at the keyboard: True (the backup's), False
    (this tablet's), None (stop)."""
    print(plan.question())
    for c in plan.conflicts[:10]:
        print("  " + _("{file}: {fact}").format(file=c.file, fact=c.where() or c.file))
    answer = input(_("1 keeps this tablet's, 2 takes the backup's, anything else stops: ")).strip()
    return {"1": False, "2": True}.get(answer)


def cmd_restore(args, usage: Callable[[str], Exception]) -> int:
    import sys
    from pathlib import Path

    from companion.plays.backup import BackupRefused, plan_restore, restore

    choice = True if args.take_backup else False if args.keep_local else None
    try:
        plan = plan_restore(Path(args.file))
        if plan.conflicts and choice is None:
            if not sys.stdin.isatty():
                raise usage(
                    _("{question} Run it again with --keep-local or --take-backup; nothing was changed").format(
                        question=plan.question()
                    )
                )
            choice = _ask(plan)
            if choice is None:
                raise usage(_("Nothing was restored"))
        done = restore(plan, choice)
    except BackupRefused as exc:
        raise usage(str(exc)) from None
    print(done.words())
    return 0


def register_commands(sub, usage_error: type[Exception]) -> None:
    """`elgrande backup FILE` and `elgrande restore FILE`; `usage_error`: what the command line
    prints as one line, exit 2."""
    backup = sub.add_parser(
        "backup",
        help=_("write every game, the known players, Your cards, Your board and the settings into one file"),
    )
    backup.add_argument("file", metavar="FILE", help=_("the backup file to write (a zip file)"))
    backup.set_defaults(func=lambda args: cmd_backup(args, usage_error))
    restore = sub.add_parser(
        "restore", help=_("merge a backup into this tablet: games already here are not added twice")
    )
    restore.add_argument("file", metavar="FILE", help=_("the backup file to read"))
    choice = restore.add_mutually_exclusive_group()
    choice.add_argument(
        "--keep-local", action="store_true", help=_("where a card or board fact differs, keep this tablet's")
    )
    choice.add_argument(
        "--take-backup", action="store_true", help=_("where a card or board fact differs, take the backup's")
    )
    restore.set_defaults(func=lambda args: cmd_restore(args, usage_error))
