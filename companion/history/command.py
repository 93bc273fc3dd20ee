"""`elgrande games` (the saved games, as a list), `elgrande stats` (each player's record) and
`elgrande export` (a finished game as a BG Stats file, BoardGameGeek CSV or a PNG to share)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.history.people_words import and_list
from companion.history.records import (
    SOURCES,
    GameRecord,
    game_records,
    last_finished,
    read_record,
    replay_log,
    source_name,
    when,
)
from companion.safe_text import for_json, for_terminal
from companion.words import _
from companion.words.colours import colour_word


def _folder(args) -> Path | None:
    return Path(args.folder) if args.folder else None


_usage_error: type[Exception] = ValueError  # the command line's UsageError (given at registration)


def _usage(message: str) -> Exception:
    return _usage_error(message)


def _line(record: GameRecord) -> str:
    """One game on one line; every name, the file's too, as text (a log may hold any character)."""
    if not record.players:
        return for_terminal(_("{game}: damaged: {damage}").format(game=record.name, damage=record.damaged))
    scores = ", ".join(
        f"{p.name} ({colour_word(p.id)}) {p.score}" for p in sorted(record.players, key=lambda p: -p.score)
    )
    state = (
        _("won by {who}").format(who=and_list(p.name for p in record.winners))
        if record.finished
        else _("round {round} of {rounds}, not finished").format(round=record.round, rounds=record.rounds)
    )
    damaged = " [" + _("damaged: {damage}").format(damage=record.damaged.split(". ")[0]) + "]" if record.damaged else ""
    return for_terminal(f"{when(record)}  {record.rules_label}: {scores}; {state}  [{record.name}]{damaged}")


def cmd_games(args) -> int:
    records = game_records(_folder(args))
    if args.json:
        print(for_json(json.dumps([r.to_json() for r in records], ensure_ascii=False)))
    elif not records:
        print(_("No saved games."))
    else:
        print("\n".join(_line(r) for r in records))
    return 0


def cmd_stats(args) -> int:
    from companion.history.records import statistics

    stats = statistics(game_records(_folder(args)))
    if args.json:
        print(for_json(json.dumps([s.to_json() for s in stats], ensure_ascii=False)))
        return 0
    if not stats:
        print(_("No finished games yet."))
        return 0
    for s in stats:
        sources = ", ".join(
            f"{source_name(k).lower()} {s.by_source.get(k, 0)}" for k in SOURCES if s.by_source.get(k, 0)
        )
        if s.shared_wins:
            said = _("games {games}, wins {wins} ({shared} shared), mean {mean}, best {best}; points: {sources}")
        else:
            said = _("games {games}, wins {wins}, mean {mean}, best {best}; points: {sources}")
        words = said.format(
            games=s.games, wins=s.wins, shared=s.shared_wins, mean=f"{s.mean:.1f}", best=s.best, sources=sources
        )
        print(f"{for_terminal(s.name):<14} {s.rules:<13} {words}")
    return 0


def _game(args) -> GameRecord:
    if args.game == "last":
        record = last_finished(_folder(args))
        if record is None:
            raise _usage(_("last: there is no finished game in the games folder"))
        return record
    path = Path(args.game)
    if not path.is_file():
        raise _usage(_("{game}: no such game log").format(game=args.game))
    return read_record(path)


def cmd_export(args) -> int:
    from companion.history import export

    record = _game(args)
    if args.bgstats_link:  # BG Stats' push link (companion.plays): printed, nothing written
        from companion.plays.command import print_link

        return print_link(record, _usage)
    try:
        if args.bgstats:
            export.write_bgstats(record, Path(args.bgstats))
            target = args.bgstats
        elif args.csv:
            export.write(Path(args.csv), export.bgg_csv(record))
            target = args.csv
        else:
            export.write(Path(args.png), export.share_png(record, replay_log(record.path)))
            target = args.png
    except (export.ExportError, ValueError) as exc:
        raise _usage(str(exc)) from None
    print(for_terminal(_("{game} written to {target}").format(game=record.name, target=target)))
    return 0


def register_commands(sub, usage_error: type[Exception]) -> None:
    """`usage_error`: what the command line prints as one line, exit 2 (companion.cli's UsageError,
    passed in: run as `python -m companion.cli` that module is __main__, not companion.cli)."""
    global _usage_error
    _usage_error = usage_error
    folder_help = _("the games folder (default: the app's; ELGRANDE_DATA_DIR/games when set)")
    games = sub.add_parser("games", help=_("list the saved games: date, rules, players, scores, winners"))
    games.add_argument("--json", action="store_true", help=_("print one JSON list"))
    games.add_argument("--folder", metavar=_("DIR"), help=folder_help)
    games.set_defaults(func=cmd_games)

    stats = sub.add_parser("stats", help=_("each player's record per rule system (finished games)"))
    stats.add_argument("--json", action="store_true", help=_("print one JSON list"))
    stats.add_argument("--folder", metavar=_("DIR"), help=folder_help)
    stats.set_defaults(func=cmd_stats)

    export = sub.add_parser("export", help=_("write a finished game for BG Stats, BoardGameGeek or to share"))
    export.add_argument("game", metavar=_("GAME"), help=_("a game log, or 'last' (the most recently finished game)"))
    what = export.add_mutually_exclusive_group(required=True)
    what.add_argument("--bgstats", metavar=_("FILE"), help=_("BG Stats import file (.bgsplay, JSON)"))
    what.add_argument("--csv", metavar=_("FILE"), help=_("BoardGameGeek play fields, one row per player"))
    what.add_argument("--png", metavar=_("FILE"), help=_("a picture: final standings and the score plot"))
    from companion.plays.command import add_link_option

    add_link_option(what)
    export.add_argument(
        "--folder",
        metavar=_("DIR"),
        help=_("the games folder (default: the app's; ELGRANDE_DATA_DIR/games when set); for 'last'"),
    )
    export.set_defaults(func=cmd_export)
