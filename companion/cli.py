"""The `elgrande` command. User mistakes end with exit status 2 and one clear
line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

from companion.safe_text import for_json, for_terminal
from companion.words.choice import start_language
from companion.words.refusals import said_words
from engine.errors import RuleViolation
from engine.rules import MODULES, RULE_SETS
from engine.scoring import ScoreLine
from engine.snapshot import SnapshotError, TableFileError, load_snapshot, score_snapshot, snapshot_board


class UsageError(Exception):
    """A mistake by the person at the keyboard: printed as one line, exit 2."""


# --- rule sets: --rules, --with, --board, --cards ---------------------------------------


def _add_rules_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        choices=RULE_SETS,
        default="classic",
        help="the rule set: classic (1995), 2023 (Hans im Glück's edition) or king-intrigue "
        "(the King and Intrigue expansion)",
    )
    parser.add_argument(
        "--with",
        dest="modules",
        metavar="MODULES",
        default="",
        help="modules, comma-separated: 2023: "
        + ", ".join(MODULES["2023"])
        + "; king-intrigue: "
        + ", ".join(MODULES["king-intrigue"]),
    )
    parser.add_argument(
        "--board",
        metavar="FILE",
        help="your board file (JSON): completes or corrects the shipped board (the 2023 board's unpublished facts)",
    )
    parser.add_argument("--cards", metavar="FILE", help="your card-set file (JSON): adds or corrects cards")


def _modules(args) -> list[str]:
    return [m.strip() for m in args.modules.split(",") if m.strip()]


def _read_json_file(path: str | None, what: str):
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the {what} ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def _rules_choice(args, players: int):
    """The rule set, board file and card file the arguments name, checked; UsageError names
    what is wrong (an unknown module, a combination the rules do not have, a bad file)."""
    from engine.board.errors import DataFileError, RuleSetError
    from engine.board.load import load_board
    from engine.rules import RulesChoiceError, rule_set

    modules = _modules(args)
    try:
        rule_set(args.rules, modules, players)
    except RulesChoiceError as exc:
        raise UsageError(f"--with: {exc}") from None
    board_file = _read_json_file(args.board, "board file")
    cards_file = _read_json_file(args.cards, "card-set file")
    try:
        board = load_board(args.rules, players, board_file, cards_file)
    except RuleSetError as exc:
        raise UsageError(f"--rules {args.rules}: {exc}") from None
    except DataFileError as exc:
        which = args.cards if "card" in type(exc).__name__.lower() else args.board
        raise UsageError(f"{which}: {exc}") from None
    return modules, board_file, cards_file, board


# --- score -------------------------------------------------------------------------


def _read_snapshot(path: str, args=None):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the snapshot ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if args is not None and isinstance(data, dict):
        said = data.get("rules", "classic")
        if "rules" in data and args.rules_given and said != args.rules:
            raise UsageError(f"{path}: the snapshot says rules {said!r} but --rules says {args.rules!r}")
        if args.rules_given:
            data = {**data, "rules": args.rules}
    board_file = _read_json_file(getattr(args, "board", None), "board file")
    cards_file = _read_json_file(getattr(args, "cards", None), "card-set file")
    try:
        snap = load_snapshot(data, board_file=board_file, cards_file=cards_file)
        return snap, snapshot_board(snap, board_file, cards_file)
    except TableFileError as exc:  # the board or card file's mistake: named by its own path
        raise UsageError(f"{args.cards if exc.file == 'cards' else args.board}: {exc}") from None
    except SnapshotError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _print_lines(lines: list[ScoreLine], gained: dict[str, int], after, board, alliance: list[str] = ()) -> None:
    """One heading per area, its lines together (a 2x marker's lines under its region); the two
    Alliance regions, scored as one, under one heading naming both, each line saying whose
    scoreboard pays."""
    name = lambda area: board.area_name(board.area_index[area])
    pair = " + ".join(name(a) for a in alliance)
    label = f"Alliance: {pair} scored as one: "
    groups: dict[str, list[str]] = {}
    for line in lines:
        if line.area in alliance:
            heading = f"{pair} (Alliance: scored as one)"
            reason = (
                f"{name(line.area)}'s scoreboard: {line.reason.removeprefix(label)}"
                if line.reason.startswith(label)
                else line.reason
            )
        else:
            heading, reason = name(line.area), line.reason
        groups.setdefault(heading, []).append(for_terminal(f"  {line.player:<8} {line.points:>+3}  {reason}"))
    for heading, printed in groups.items():
        print(f"\n{for_terminal(heading)}")
        print("\n".join(printed))
    print("\n" + for_terminal("Gained:  " + ", ".join(f"{p} {g:+d}" for p, g in gained.items())))
    print(for_terminal("Scores:  " + ", ".join(f"{p} {s}" for p, s in after.scores.items())))


def cmd_score(args) -> int:
    if args.modules:
        raise UsageError("--with: a snapshot is scored by its rule set alone; modules change no scoring")
    snap, board = _read_snapshot(args.snapshot, args)
    try:
        gained, lines, after = score_snapshot(snap, args.special, board)
    except SnapshotError as exc:
        raise UsageError(f"{args.snapshot}: {exc}") from None
    if args.json:
        print(
            for_json(
                json.dumps(
                    {"gained": gained, "lines": [ln.to_dict() for ln in lines], "snapshot": after.model_dump()},
                    ensure_ascii=False,
                )
            )
        )
    else:
        title = f"Special scoring: {args.special}" if args.special else "General scoring"
        rules = (
            ""
            if snap.rules == "classic"
            else f", {snap.rules} rules" + (f", {board.side} player side" if snap.rules == "2023" else "")
        )  # King and Intrigue: one board
        dummy = f" and the dummy ({snap.dummy})" if snap.dummy else ""
        print(f"{title} ({snap.playing} players{dummy}{rules})")
        _print_lines(lines, gained, after, board, snap.alliance)
    return 0


# --- selfplay ----------------------------------------------------------------------


def cmd_selfplay(args) -> int:
    from engine.playout import StandInsShort, selfplay, standins_used_note

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if not 2 <= args.players <= 5:
        raise UsageError(f"--players {args.players}: El Grande takes 2 to 5 players")
    modules, board_file, cards_file, _ = _rules_choice(args, args.players)
    t0 = time.perf_counter()
    try:
        stats = selfplay(
            args.games,
            args.players,
            args.seed,
            check=not args.no_checks,
            variant=args.variant,
            rules=args.rules,
            modules=tuple(modules),
            board_file=board_file,
            cards_file=cards_file,
        )
    except RuleViolation as exc:
        if exc.rule not in ("setup", "card-set-incomplete"):
            raise  # a bug in the engine, not the user's mistake: the traceback is wanted
        raise UsageError(said_words(exc.detail)) from None
    except StandInsShort as exc:
        raise UsageError(str(exc)) from None
    seconds = time.perf_counter() - t0
    if stats.standins and not args.json:
        print(f"Note: {standins_used_note(args.rules, stats.standins_filled)}.", file=sys.stderr)
    summary = {
        "rules": args.rules,
        "modules": modules,
        "stand_ins": stats.standins,
        "games": stats.games,
        "players": args.players,
        "seed": args.seed,
        "variant": args.variant,
        "invariant_checks": not args.no_checks,
        "seconds": round(seconds, 3),
        "games_per_second": round(stats.games / seconds, 1),
        "events_per_game": round(stats.events / stats.games, 1),
        "scorings_per_game": round(stats.scorings / stats.games, 2),
        "vetoes_used": stats.vetoes_used,
        "shared_victories": stats.shared_wins,
        "mean_winning_score": round(sum(stats.win_scores) / stats.games, 1),
        "distinct_cards_used": len(stats.cards_used),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k.replace('_', ' '):<22} {v}")
    return 0


# --- demo --------------------------------------------------------------------------


def cmd_demo(args) -> int:
    """A short random game through the engine, told round by round."""
    from engine.flow import apply_event, asked
    from engine.game import start_state
    from engine.playout import StandInsShort, random_event, random_setup, self_play_files, standins_used_note

    modules, board_file, cards_file, board = _rules_choice(args, args.players)
    try:
        board_file, cards_file, filled = self_play_files(
            args.rules, args.players, board_file, cards_file, tuple(modules)
        )
    except StandInsShort as exc:
        raise UsageError(str(exc)) from None
    standins = bool(filled)
    if standins:
        print(f"Note: {standins_used_note(args.rules, filled)}.", file=sys.stderr)
        from engine.board.load import load_board

        board = load_board(args.rules, args.players, board_file, cards_file)
    rng = random.Random(args.seed)
    setup = random_setup(
        rng, args.players, board, "short", args.rules, tuple(modules), board_file, cards_file, standins
    )
    try:
        state = start_state(setup, board)
    except RuleViolation as exc:
        raise UsageError(said_words(exc.detail)) from None
    rules = (
        "" if args.rules == "classic" else f", {args.rules} rules" + (f" with {', '.join(modules)}" if modules else "")
    )
    print(f"El Grande demo: {args.players} players, short game{rules}, seed {args.seed}")
    name = board.area_name
    print(
        for_terminal(
            f"King in {name(board.area_index[setup.king])}; homes: "
            + ", ".join(f"{p} {name(board.area_index[r])}" for p, r in setup.homes.items())
        )
    )
    seen_scorings = 0
    current_round = None
    cards = Counter()
    while state.stage != "over":
        if state.round != current_round:
            current_round = state.round
            print(f"\nRound {current_round}")
        ask = asked(state)
        event = random_event(rng, ask)
        apply_event(state, event)
        if event.type == "action_card_chosen":
            cards[state.turn.card.name] += 1
            print(for_terminal(f"  {event.player:<7} takes {state.turn.card.name}: {state.turn.card.text}"))
        elif event.type == "court_replenished" and state.rules.king_intrigue and state.stage == "turn":
            from engine.rules.king_intrigue.round import action_cards_by_rank

            p, card = state.turn.player, state.turn.card
            held = state.board.cards[action_cards_by_rank(state)[p][0]].name
            print(
                for_terminal(
                    f"  {event.player:<7} played {state.played[p]} and holds the {held} "
                    f"(places {card.placement}): {card.text}"
                )
            )
        for record in state.scoring_log[seen_scorings:]:
            print(for_terminal(f"  * {record.title}"))
            for line in record.lines:
                if line.points:
                    area = board.area_name(board.area_index[line.area])
                    print(for_terminal(f"      {area:<18} {line.player:<7} {line.points:+d}  {line.reason}"))
        seen_scorings = len(state.scoring_log)
    print(
        "\nFinal scores: "
        + ", ".join(f"{p} {s}" for q, (p, s) in enumerate(zip(state.players, state.scores)) if q != state.dummy)
    )
    print("El Grande: " + " and ".join(state.players[p] for p in state.winners))
    return 0


# --- app --------------------------------------------------------------------------


def cmd_app(args) -> int:
    """The tablet app (Kivy). Imported here: the other commands need no display."""
    from pathlib import Path

    if args.exit_after is not None and args.exit_after <= 0:
        raise UsageError("--exit-after must be a positive number of seconds")
    if args.screenshot and args.exit_after is None:
        raise UsageError("--screenshot needs --exit-after SECONDS (when to take it)")
    resume = None
    if args.resume:
        from companion.storage.games_folder import log_paths
        from companion.table.game_check import check_game

        if args.resume == "last":  # the newest unfinished game that is not damaged
            checks = (check_game(path) for path in log_paths())
            check = next((c for c in checks if not c.damaged and not c.finished), None)
            if check is None:
                raise UsageError("--resume last: there is no unfinished game to resume")
            resume = check.path
        else:
            resume = Path(args.resume)
            if not resume.exists():
                raise UsageError(f"--resume {args.resume}: no such game log")
            if not resume.is_file():
                raise UsageError(f"--resume {args.resume}: not a game log (a folder, or a link to nothing)")
            check = check_game(resume)
        if check.damaged:  # the home screen offers the choices; a command line only says what is wrong
            choices = (
                "open it up to its last intact record or keep it aside" if check.damage.openable else "keep it aside"
            )
            raise UsageError(
                f"--resume {args.resume}: {check.damage.summary()} Start the app without --resume to {choices}."
            )
    from companion.ui.app import run

    return run(screenshot=args.screenshot, exit_after=args.exit_after, resume=resume)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="elgrande", description="El Grande Companion")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score a table snapshot (JSON)")
    score.add_argument("snapshot", help="path of the snapshot JSON file")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.add_argument(
        "--special", metavar="KIND", help="a special scoring: 4, 5, 6-7, castillo, region:ID, first-only, most, least"
    )
    _add_rules_args(score)
    score.set_defaults(func=cmd_score)

    sp = sub.add_parser("selfplay", help="play random legal games through the engine")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--players", type=int, default=5)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--variant", choices=("full", "short"), default="full")
    sp.add_argument("--no-checks", action="store_true", help="skip the invariant checks (for speed)")
    sp.add_argument("--json", action="store_true")
    _add_rules_args(sp)
    sp.set_defaults(func=cmd_selfplay)

    demo = sub.add_parser("demo", help="watch a short random game")
    demo.add_argument("--players", type=int, default=4, choices=range(2, 6))
    demo.add_argument("--seed", type=int, default=1)
    _add_rules_args(demo)
    demo.set_defaults(func=cmd_demo)

    app = sub.add_parser("app", help="start the tablet app (simulated tower unless the new game says otherwise)")
    app.add_argument("--screenshot", metavar="PATH", help="save a PNG of the window (with --exit-after)")
    app.add_argument(
        "--exit-after",
        type=float,
        metavar="SECONDS",
        help="quit this many seconds after the window first shows (the screenshot is taken then)",
    )
    app.add_argument("--resume", metavar="LOG", help="open a saved game: a log path, or 'last'")
    app.set_defaults(func=cmd_app)

    from firmware_bridge.cli import register_commands

    register_commands(sub)
    from companion.club.command import register_commands as register_club_commands

    register_club_commands(sub)
    from companion.history.command import register_commands as register_games_commands

    register_games_commands(sub, UsageError)
    return parser


def main(argv: list[str] | None = None) -> int:
    start_language()  # ELGRANDE_LANG, the kept setting, the system's: before the first word
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    args.rules_given = any(a == "--rules" or a.startswith("--rules=") for a in argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"elgrande {args.command}: {for_terminal(str(exc))}", file=sys.stderr)  # paths, names: as text
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
