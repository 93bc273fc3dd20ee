"""`elgrande games` (the saved games, as a list), `elgrande stats` (each player's record) and
`elgrande export` (a finished game as a BG Stats file, BoardGameGeek CSV or a PNG to share)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.history.records import (
    SOURCE_NAMES,
    SOURCES,
    GameRecord,
    game_records,
    last_finished,
    read_record,
    replay_log,
    when,
)
from companion.safe_text import for_json, for_terminal


def _folder(args) -> Path | None:
    return Path(args.folder) if args.folder else None


_usage_error: type[Exception] = ValueError  # the command line's UsageError (given at registration)


def _usage(message: str) -> Exception:
    return _usage_error(message)


def _line(record: GameRecord) -> str:
    """One game on one line; every name, the file's too, as text (a log may hold any character)."""
    if not record.players:
        return for_terminal(f"{record.name}: damaged: {record.damaged}")
    scores = ", ".join(f"{p.name} ({p.id}) {p.score}" for p in sorted(record.players, key=lambda p: -p.score))
    state = (
        f"won by {' and '.join(p.name for p in record.winners)}"
        if record.finished
        else f"round {record.round} of {record.rounds}, not finished"
    )
    damaged = f" [damaged: {record.damaged.split('. ')[0]}]" if record.damaged else ""
    return for_terminal(f"{when(record)}  {record.rules_label}: {scores}; {state}  [{record.name}]{damaged}")


def cmd_games(args) -> int:
    records = game_records(_folder(args))
    if args.json:
        print(for_json(json.dumps([r.to_json() for r in records], ensure_ascii=False)))
    elif not records:
        print("No saved games.")
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
        print("No finished games yet.")
        return 0
    for s in stats:
        shared = f" ({s.shared_wins} shared)" if s.shared_wins else ""
        sources = ", ".join(
            f"{SOURCE_NAMES[k].lower()} {s.by_source.get(k, 0)}" for k in SOURCES if s.by_source.get(k, 0)
        )
        print(
            f"{for_terminal(s.name):<14} {s.rules:<13} games {s.games}, wins {s.wins}{shared}, mean {s.mean:.1f}, "
            f"best {s.best}; points: {sources}"
        )
    return 0


def _game(args) -> GameRecord:
    if args.game == "last":
        record = last_finished(_folder(args))
        if record is None:
            raise _usage("last: there is no finished game in the games folder")
        return record
    path = Path(args.game)
    if not path.is_file():
        raise _usage(f"{args.game}: no such game log")
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
    print(for_terminal(f"{record.name} written to {target}"))
    return 0


def register_commands(sub, usage_error: type[Exception]) -> None:
    """`usage_error`: what the command line prints as one line, exit 2 (companion.cli's UsageError,
    passed in: run as `python -m companion.cli` that module is __main__, not companion.cli)."""
    global _usage_error
    _usage_error = usage_error
    folder_help = "the games folder (default: the app's; ELGRANDE_DATA_DIR/games when set)"
    games = sub.add_parser("games", help="list the saved games: date, rules, players, scores, winners")
    games.add_argument("--json", action="store_true", help="print one JSON list")
    games.add_argument("--folder", metavar="DIR", help=folder_help)
    games.set_defaults(func=cmd_games)

    stats = sub.add_parser("stats", help="each player's record per rule system (finished games)")
    stats.add_argument("--json", action="store_true", help="print one JSON list")
    stats.add_argument("--folder", metavar="DIR", help=folder_help)
    stats.set_defaults(func=cmd_stats)

    export = sub.add_parser("export", help="write a finished game for BG Stats, BoardGameGeek or to share")
    export.add_argument("game", metavar="GAME", help="a game log, or 'last' (the most recently finished game)")
    what = export.add_mutually_exclusive_group(required=True)
    what.add_argument("--bgstats", metavar="FILE", help="BG Stats import file (.bgsplay, JSON)")
    what.add_argument("--csv", metavar="FILE", help="BoardGameGeek play fields, one row per player")
    what.add_argument("--png", metavar="FILE", help="a picture: final standings and the score plot")
    from companion.plays.command import add_link_option

    add_link_option(what)
    export.add_argument("--folder", metavar="DIR", help=folder_help + "; for 'last'")
    export.set_defaults(func=cmd_export)
