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
from companion.words import N_, _, names, ngettext
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
        help=_(
            "the rule set: classic (1995), 2023 (Hans im Glück's edition) or king-intrigue "
            "(the King and Intrigue expansion)"
        ),
    )
    parser.add_argument(
        "--with",
        dest="modules",
        metavar="MODULES",
        default="",
        help=_("modules, comma-separated: 2023: {modules_2023}; king-intrigue: {modules_ki}").format(
            modules_2023=", ".join(MODULES["2023"]), modules_ki=", ".join(MODULES["king-intrigue"])
        ),
    )
    parser.add_argument(
        "--board",
        metavar=_("FILE"),
        help=_("your board file (JSON): completes or corrects the shipped board (the 2023 board's unpublished facts)"),
    )
    parser.add_argument("--cards", metavar=_("FILE"), help=_("your card-set file (JSON): adds or corrects cards"))


def _modules(args) -> list[str]:
    return [m.strip() for m in args.modules.split(",") if m.strip()]


BOARD_FILE, CARDS_FILE, SNAPSHOT = N_("the board file"), N_("the card-set file"), N_("the snapshot")


def _cannot_read(path: str, what: str, exc: OSError) -> UsageError:
    return UsageError(_("{path}: cannot read {what} ({reason})").format(path=path, what=_(what), reason=exc.strerror))


def _not_json(path: str, exc: json.JSONDecodeError) -> UsageError:
    return UsageError(
        _("{path}: not valid JSON (line {line}, column {column}: {reason})").format(
            path=path, line=exc.lineno, column=exc.colno, reason=exc.msg
        )
    )


def _read_json_file(path: str | None, what: str):
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise _cannot_read(path, what, exc) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _not_json(path, exc) from None


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
    board_file = _read_json_file(args.board, BOARD_FILE)
    cards_file = _read_json_file(args.cards, CARDS_FILE)
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
        raise _cannot_read(path, SNAPSHOT, exc) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _not_json(path, exc) from None
    if args is not None and isinstance(data, dict):
        said = data.get("rules", "classic")
        if "rules" in data and args.rules_given and said != args.rules:
            raise UsageError(
                _("{path}: the snapshot says rules {said} but --rules says {given}").format(
                    path=path, said=repr(said), given=repr(args.rules)
                )
            )
        if args.rules_given:
            data = {**data, "rules": args.rules}
    board_file = _read_json_file(getattr(args, "board", None), BOARD_FILE)
    cards_file = _read_json_file(getattr(args, "cards", None), CARDS_FILE)
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
    english = lambda area: board.area_name(board.area_index[area])
    name = lambda area: names.place(english(area))
    label = f"Alliance: {' + '.join(english(a) for a in alliance)} scored as one: "  # the engine's words
    pair = " + ".join(name(a) for a in alliance)
    groups: dict[str, list[str]] = {}
    for line in lines:
        if line.area in alliance:
            heading = _("{regions} (Alliance: scored as one)").format(regions=pair)
            reason = (
                _("{region}'s scoreboard: {reason}").format(
                    region=name(line.area), reason=line.reason.removeprefix(label)
                )
                if line.reason.startswith(label)
                else line.reason
            )
        else:
            heading, reason = name(line.area), line.reason
        groups.setdefault(heading, []).append(for_terminal(f"  {line.player:<8} {line.points:>+3}  {reason}"))
    for heading, printed in groups.items():
        print(f"\n{for_terminal(heading)}")
        print("\n".join(printed))
    gains = ", ".join(f"{p} {g:+d}" for p, g in gained.items())
    print("\n" + for_terminal(_("Gained:  {gains}").format(gains=gains)))
    print(for_terminal(_("Scores:  {scores}").format(scores=", ".join(f"{p} {s}" for p, s in after.scores.items()))))


def cmd_score(args) -> int:
    if args.modules:
        raise UsageError(_("--with: a snapshot is scored by its rule set alone; modules change no scoring"))
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
        title = _("Special scoring: {kind}").format(kind=args.special) if args.special else _("General scoring")
        n = snap.playing
        details = [
            _("{n} players and the dummy ({dummy})").format(n=n, dummy=snap.dummy)
            if snap.dummy
            else ngettext("{n} player", "{n} players", n).format(n=n)
        ]
        if snap.rules != "classic":
            details.append(_("{rules} rules").format(rules=snap.rules))
        if snap.rules == "2023":  # King and Intrigue: one board
            details.append(_("{side} player side").format(side=board.side))
        print(_("{title} ({details})").format(title=title, details=", ".join(details)))
        _print_lines(lines, gained, after, board, snap.alliance)
    return 0


# --- selfplay ----------------------------------------------------------------------


def cmd_selfplay(args) -> int:
    from engine.playout import StandInsShort, selfplay, standins_used_note

    if args.games < 1:
        raise UsageError(_("--games must be at least 1"))
    if not 2 <= args.players <= 5:
        raise UsageError(_("--players {n}: El Grande takes 2 to 5 players").format(n=args.players))
    modules, board_file, cards_file = _rules_choice(args, args.players)[:3]
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
        print(_("Note: {note}.").format(note=standins_used_note(args.rules, stats.standins_filled)), file=sys.stderr)
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
            print(f"{_(SUMMARY_WORDS[k]):<22} {v}")
    return 0


# What selfplay's summary says, line by line (its --json keeps the keys).
SUMMARY_WORDS = {
    "rules": N_("rules"),
    "modules": N_("modules"),
    "stand_ins": N_("stand ins"),
    "games": N_("games"),
    "players": N_("players"),
    "seed": N_("seed"),
    "variant": N_("variant"),
    "invariant_checks": N_("invariant checks"),
    "seconds": N_("seconds"),
    "games_per_second": N_("games per second"),
    "events_per_game": N_("events per game"),
    "scorings_per_game": N_("scorings per game"),
    "vetoes_used": N_("vetoes used"),
    "shared_victories": N_("shared victories"),
    "mean_winning_score": N_("mean winning score"),
    "distinct_cards_used": N_("distinct cards used"),
}


# --- demo --------------------------------------------------------------------------


def cmd_demo(args) -> int:
    """A short random game through the engine, told round by round."""
    from companion.history.people_words import and_list
    from companion.history.scoring_words import scoring_title
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
        print(_("Note: {note}.").format(note=standins_used_note(args.rules, filled)), file=sys.stderr)
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
    if args.rules == "classic":
        said = _("El Grande demo: {n} players, short game, seed {seed}")
    elif modules:
        said = _("El Grande demo: {n} players, short game, {rules} rules with {modules}, seed {seed}")
    else:
        said = _("El Grande demo: {n} players, short game, {rules} rules, seed {seed}")
    print(said.format(n=args.players, seed=args.seed, rules=args.rules, modules=", ".join(modules)))
    name = lambda area: names.place(board.area_name(board.area_index[area]))
    homes = ", ".join(f"{p} {name(r)}" for p, r in setup.homes.items())
    print(for_terminal(_("King in {area}; homes: {homes}").format(area=name(setup.king), homes=homes)))
    seen_scorings = 0
    current_round = None
    cards = Counter()
    while state.stage != "over":
        if state.round != current_round:
            current_round = state.round
            print("\n" + _("Round {n}").format(n=current_round))
        ask = asked(state)
        event = random_event(rng, ask)
        apply_event(state, event)
        if event.type == "action_card_chosen":
            cards[state.turn.card.name] += 1
            card = state.turn.card
            took = _("{who} takes {card}: {text}").format(
                who=f"{event.player:<7}", card=names.card(card.name), text=names.card_text(card.text)
            )
            print(for_terminal(f"  {took}"))
        elif event.type == "court_replenished" and state.rules.king_intrigue and state.stage == "turn":
            from engine.rules.king_intrigue.round import action_cards_by_rank

            p, card = state.turn.player, state.turn.card
            held = state.board.cards[action_cards_by_rank(state)[p][0]].name
            holds = _("{who} played {power} and holds the {card} (places {n}): {text}").format(
                who=f"{event.player:<7}",
                power=state.played[p],
                card=names.card(held),
                n=card.placement,
                text=names.card_text(card.text),
            )
            print(for_terminal(f"  {holds}"))
        for record in state.scoring_log[seen_scorings:]:
            print(for_terminal(f"  * {scoring_title(record.title)}"))
            for line in record.lines:
                if line.points:
                    area = name(line.area)
                    print(for_terminal(f"      {area:<18} {line.player:<7} {line.points:+d}  {line.reason}"))
        seen_scorings = len(state.scoring_log)
    scores = ", ".join(f"{p} {s}" for q, (p, s) in enumerate(zip(state.players, state.scores)) if q != state.dummy)
    print("\n" + _("Final scores: {scores}").format(scores=scores))
    print(_("El Grande: {winners}").format(winners=and_list(state.players[p] for p in state.winners)))
    return 0


# --- app --------------------------------------------------------------------------


def cmd_app(args) -> int:
    """The tablet app (Kivy). Imported here: the other commands need no display."""
    from pathlib import Path

    if args.exit_after is not None and args.exit_after <= 0:
        raise UsageError(_("--exit-after must be a positive number of seconds"))
    if args.screenshot and args.exit_after is None:
        raise UsageError(_("--screenshot needs --exit-after SECONDS (when to take it)"))
    resume = None
    if args.resume:
        from companion.storage.games_folder import log_paths
        from companion.table.game_check import check_game

        if args.resume == "last":  # the newest unfinished game that is not damaged
            checks = (check_game(path) for path in log_paths())
            check = next((c for c in checks if not c.damaged and not c.finished), None)
            if check is None:
                raise UsageError(_("--resume last: there is no unfinished game to resume"))
            resume = check.path
        else:
            resume = Path(args.resume)
            if not resume.exists():
                raise UsageError(_("--resume {log}: no such game log").format(log=args.resume))
            if not resume.is_file():
                raise UsageError(
                    _("--resume {log}: not a game log (a folder, or a link to nothing)").format(log=args.resume)
                )
            check = check_game(resume)
        if check.damaged:  # the home screen offers the choices; a command line only says what is wrong
            said = (
                _(
                    "--resume {log}: {damage} Start the app without --resume to open it up to its last intact "
                    "record or keep it aside."
                )
                if check.damage.openable
                else _("--resume {log}: {damage} Start the app without --resume to keep it aside.")
            )
            raise UsageError(said.format(log=args.resume, damage=check.damage.summary()))
    from companion.ui.app import run

    return run(screenshot=args.screenshot, exit_after=args.exit_after, resume=resume)


# argparse's own words ("usage:", "options", its errors), read through the catalogue: argparse
# looks them up with gettext's "argparse" domain, which ships no German, Spanish or French.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)


def speak_argparse() -> None:
    """argparse's words in the table's language, from now on (its module-level gettext lookups,
    the one place they are made, pointed at the catalogue)."""
    argparse._ = _
    argparse.ngettext = ngettext


def build_parser() -> argparse.ArgumentParser:
    speak_argparse()
    parser = argparse.ArgumentParser(prog="elgrande", description=_("El Grande Companion"))
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help=_("score a table snapshot (JSON)"))
    score.add_argument("snapshot", help=_("path of the snapshot JSON file"))
    score.add_argument("--json", action="store_true", help=_("print one JSON object"))
    score.add_argument(
        "--special",
        metavar=_("KIND"),
        help=_("a special scoring: 4, 5, 6-7, castillo, region:ID, first-only, most, least"),
    )
    _add_rules_args(score)
    score.set_defaults(func=cmd_score)

    sp = sub.add_parser("selfplay", help=_("play random legal games through the engine"))
    sp.add_argument("--games", type=int, default=100, help=_("how many games"))
    sp.add_argument("--players", type=int, default=5, help=_("players per game (2 to 5)"))
    sp.add_argument("--seed", type=int, default=0, help=_("the random seed (the same seed plays the same games)"))
    sp.add_argument("--variant", choices=("full", "short"), default="full", help=_("the full or the short game"))
    sp.add_argument("--no-checks", action="store_true", help=_("skip the invariant checks (for speed)"))
    sp.add_argument("--json", action="store_true", help=_("print one JSON object"))
    _add_rules_args(sp)
    sp.set_defaults(func=cmd_selfplay)

    demo = sub.add_parser("demo", help=_("watch a short random game"))
    demo.add_argument("--players", type=int, default=4, choices=range(2, 6), help=_("players (2 to 5)"))
    demo.add_argument("--seed", type=int, default=1, help=_("the random seed (the same seed plays the same game)"))
    _add_rules_args(demo)
    demo.set_defaults(func=cmd_demo)

    app = sub.add_parser("app", help=_("start the tablet app (simulated tower unless the new game says otherwise)"))
    app.add_argument("--screenshot", metavar=_("PATH"), help=_("save a PNG of the window (with --exit-after)"))
    app.add_argument(
        "--exit-after",
        type=float,
        metavar=_("SECONDS"),
        help=_("quit this many seconds after the window first shows (the screenshot is taken then)"),
    )
    app.add_argument("--resume", metavar=_("LOG"), help=_("open a saved game: a log path, or 'last'"))
    app.set_defaults(func=cmd_app)

    from firmware_bridge.cli import register_commands

    register_commands(sub)
    from companion.club.command import register_commands as register_club_commands

    register_club_commands(sub)
    from companion.history.command import register_commands as register_games_commands

    register_games_commands(sub, UsageError)
    from companion.plays.command import register_commands as register_plays_commands

    register_plays_commands(sub, UsageError)  # backup, restore (companion.plays)
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
