"""A replay's steps told to people: one sentence of what happened at each step (story), and in the
demo why it happened (companion.history.demo_lessons.lesson). Pure: reads the replay's
public views (each step's against the one before), never a hidden fact, no UI.

What a step did is read from what changed between the two views (Power cards played, courts,
regions, the King, the Grandes, scorings, outcomes), and who did it from what the table had asked
before it. A step nothing can be said of reads as the table named it (Step.what)."""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from functools import lru_cache

from companion.history.records import Replay
from companion.look.players import look_of
from companion.table.undo_words import STEP_WORDS
from engine.board.model import CASTILLO, Board

log = logging.getLogger("companion.history.step_story")

ORDINALS = {1: "first", 2: "second", 3: "third"}
_SPECIAL_TITLE = re.compile(r"^(?P<card>.+?) \((?P<what>.+)\), played by (?P<who>.+)$")
_GENERAL_TITLE = re.compile(r"^General scoring after round (?P<round>\d+)")
# The table's words of a step back to its input's type: "Ana's Caballeros placed" -> caballeros_placed.
_STEP_TYPES = [
    (re.compile("^" + re.escape(words).replace(re.escape("{who}"), ".+") + "$"), kind)
    for kind, words in STEP_WORDS.items()
]
PLACING = ("turn_action", "place_extra", "place_anywhere")


def step_type(what: str) -> str:
    """The type of input a step's words name ('' when they name none)."""
    return next((kind for pattern, kind in _STEP_TYPES if pattern.match(what)), "")


@lru_cache(maxsize=8)
def _board(rules: str, players: int) -> Board | None:
    from engine.board.load import load_board

    try:
        return load_board(rules, players)
    except Exception:  # a rule set or count the shipped files lack: ids are worded plainly
        try:
            return load_board(rules, 4)
        except Exception:
            return None


def board_of_view(view: dict) -> Board | None:
    """The shipped board of a view's rule set (for the names of regions and cards)."""
    players = sum(1 for p in view.get("players", []) if p["id"] != view.get("dummy"))
    return _board(view.get("rules") or "classic", max(2, players))


def _plain(ident: str) -> str:
    return ident.replace("_", " ").replace("-", " ").strip().title() or "?"


def area_words(view: dict, area: str) -> str:
    """A region (or the Castillo, a space) by its printed name."""
    if area == CASTILLO:
        return "the Castillo"
    if area == "provinces":
        return "the provinces"
    if area == "court":
        return "the court"
    board = board_of_view(view)
    if board is not None and area in board.area_index:
        return board.area_name(board.area_index[area])
    return _plain(area)


def card_of(view: dict, card_id: str | None):
    board = board_of_view(view)
    if board is None or not card_id:
        return None
    return board.cards.get(card_id)


def card_words(view: dict, card_id: str | None, unnamed: str = "their Action card") -> str:
    """An Action card by its printed name (`unnamed` when the shipped set does not name it: a
    table's own card)."""
    card = card_of(view, card_id)
    return f"'{card.name}'" if card is not None and card.name else unnamed


def caballeros(n: int) -> str:
    return "a Caballero" if n == 1 else f"{n} Caballeros"


def listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class Told:
    """One step's changes, in words."""

    def __init__(self, replay: Replay, number: int):
        self.replay = replay
        self.step = replay.steps[number]
        self.before = replay.steps[number - 1].view
        self.after = self.step.view
        asked = self.before.get("asked") or {}
        self.kind = asked.get("kind") or ""
        ids = {p["id"] for p in self.before.get("players", [])}
        actors = [p for p in asked.get("players") or [] if p in ids]
        self.actor = actors[0] if len(actors) == 1 else None
        self.asked = asked
        self.type = step_type(self.step.what)
        if self.kind == "secret_disc":  # several are asked at once: the one whose disc is now set
            chosen = set(self.after.get("secret_discs_chosen") or [])
            chosen -= set(self.before.get("secret_discs_chosen") or [])
            self.actor = next(iter(chosen)) if len(chosen) == 1 else self.actor

    def name(self, pid: str | None) -> str:
        if not pid:
            return "The table"
        return self.replay.names.get(pid) or look_of(pid).name or _plain(pid)

    def players(self, view: dict) -> dict[str, dict]:
        return {p["id"]: p for p in view.get("players", [])}

    # ---- the parts of a sentence ----------------------------------------------------------

    def sentence(self) -> str:
        parts = [
            *self.power_cards(),
            *self.revealed_cards(),
            *self.card_taken(),
            *self.private_choice(),
            *self.vetoes(),
            *self.scorings(),  # before the Castillo emptied: it is scored first, and a long line is cut at its end
            *self.court_and_board(),
            *self.king_and_grandes(),
            *self.scoreboards(),
            *self.round_change(),
        ]
        if not parts:
            parts = self.quiet_step()
        parts = [p for p in parts if p]
        if not parts:
            return ""
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]

    def power_cards(self) -> list[str]:
        before, after = self.players(self.before), self.players(self.after)
        said = []
        for pid, p in after.items():
            card = p.get("power_card_played")
            if card is not None and before.get(pid, {}).get("power_card_played") is None:
                named = card_of(self.after, f"ki_{card}")  # King and Intrigue: the Power card is the action
                title = f" ('{named.name}')" if named is not None and named.name else ""
                said.append(f"{self.name(pid)} played Power card {card}{title}")
        return said

    def revealed_cards(self) -> list[str]:
        if self.kind != "reveal_action_cards":
            return []
        cards = [(s, c) for s, c in sorted((self.after.get("action_cards") or {}).items()) if c]
        if not cards:
            return ["the round's Action cards were turned face up"]
        names = listing([card_words(self.after, c, f"the card of stack {s}") for s, c in cards])
        return [f"the round's Action cards were turned face up: {names}"]

    def card_taken(self) -> list[str]:
        before, after = self.before.get("action_cards") or {}, self.after.get("action_cards") or {}
        taken = [before[s] for s in before if before.get(s) and s in after and after[s] is None]
        if self.kind != "choose_action_card" or len(taken) != 1:
            return []
        stack = next(s for s in before if before.get(s) == taken[0])
        name = card_words(self.before, taken[0], "")
        if not name:
            return [f"{self.name(self.actor)} took the Action card of stack {stack}"]
        return [f"{self.name(self.actor)} took the Action card {name} (stack {stack})"]

    def private_choice(self) -> list[str]:
        who = self.name(self.actor)
        if self.kind == "secret_disc":
            return [f"{who} set their secret disc face down (the region stays hidden until the reveal)"]
        if self.kind == "take_back_power_card":
            return [f"{who} took one of their played Power cards back into their hand (which one stays secret)"]
        if self.kind == "choose_power_cards":
            return [f"{who} chose the Power cards they keep (which ones stay secret)"]
        return []

    def court_and_board(self) -> list[str]:
        """Caballeros that went from the provinces to a court, from a court to the board, or moved."""
        before, after = self.players(self.before), self.players(self.after)
        court = {pid: p.get("court", 0) - before.get(pid, {}).get("court", 0) for pid, p in after.items()}
        gained: dict[str, dict[str, int]] = defaultdict(dict)
        lost: dict[str, dict[str, int]] = defaultdict(dict)
        regions_before, regions_after = self.before.get("regions") or {}, self.after.get("regions") or {}
        for area in dict.fromkeys([*regions_before, *regions_after]):
            was, now = regions_before.get(area) or {}, regions_after.get(area) or {}
            for pid in set(was) | set(now):
                change = (now.get(pid) or 0) - (was.get(pid) or 0)
                if change > 0:
                    gained[pid][area] = change
                elif change < 0:
                    lost[pid][area] = -change
        moves = self.outcome_moves(gained, lost, court)
        said = self._castillo_emptied(moves, gained, court)
        for pid in after:
            said += self._caballeros_of(pid, court.get(pid, 0), gained.get(pid, {}), lost.get(pid, {}), moves)
        return said

    def _castillo_emptied(self, moves: dict[str, list[dict]], gained: dict, court: dict) -> list[str]:
        """The Castillo's Caballeros gone to the regions of their owners' discs (or, from the King's
        region, back to the court): told once, and taken out of what is left to tell."""
        emptied = [(pid, m) for pid, ms in moves.items() for m in ms if m["source"] == CASTILLO]
        if not emptied:
            return []
        for pid, move in emptied:
            moves[pid].remove(move)
            if move["target"] == "court":
                court[pid] = court.get(pid, 0) - move["count"]
            elif move["target"] in gained.get(pid, {}):
                gained[pid][move["target"]] -= move["count"]
                if gained[pid][move["target"]] <= 0:
                    del gained[pid][move["target"]]
        return [
            "the Castillo was emptied onto the regions of the discs: "
            + ", ".join(f"{self.name(pid)} {m['count']} to {area_words(self.after, m['target'])}" for pid, m in emptied)
        ]

    def outcome_moves(self, gained: dict, lost: dict, court: dict) -> dict[str, list[dict]]:
        """The moves a new outcome lists (a card's send-backs, the Castillo emptied), by player:
        those this step made (an outcome lists its earlier steps' moves too)."""
        new = (self.after.get("outcomes") or [])[len(self.before.get("outcomes") or []) :]
        moves: dict[str, list[dict]] = defaultdict(list)
        for outcome in new:
            for move in outcome.get("moves") or []:
                pid = move["player"]
                if (
                    move["source"] in lost.get(pid, {})
                    or move["target"] in gained.get(pid, {})
                    or (move["target"] == "court" and court.get(pid, 0) > 0)
                ):
                    moves[pid].append(move)
        return moves

    def _where(self, counts: dict[str, int]) -> str:
        return listing([f"{n} in {area_words(self.after, a)}" for a, n in counts.items()])

    def _caballeros_of(self, pid: str, court: int, gained: dict, lost: dict, moves: dict) -> list[str]:
        name = self.name(pid)
        if court < 0 and self.kind in PLACING and pid in (self.actor, None):  # court -> board
            # Only what landed on the regions: how many went into the Castillo is the tower's
            # secret, so no sentence says it (nor the court's total, which would give it away).
            placed = sum(gained.values())
            if not gained:
                return [f"{name} placed from the court"]
            if len(gained) == 1:
                area = next(iter(gained))
                return [f"{name} placed {caballeros(placed)} from the court in {area_words(self.after, area)}"]
            return [f"{name} placed {caballeros(placed)} from the court: {self._where(gained)}"]
        said = []
        if court > 0:
            source = "from the provinces"
            if lost:
                source += " and " + listing([f"{n} from {area_words(self.after, a)}" for a, n in lost.items()])
                lost = {}
            said.append(f"{name} moved {caballeros(court)} {source} to the court")
        elif court == 0 and pid == self.actor and self.kind == "replenish":
            said.append(f"{name} moved no Caballeros to the court")
        elif court < 0:
            said.append(f"{self._of(-court, name)} went from the court back to the provinces")
        if moves.get(pid):  # the outcome says where each went
            said += [self._outcome_move(pid, m) for m in moves[pid]]
        elif lost or gained:
            said.append(self._moved(pid, lost, gained))
        return said

    def _outcome_move(self, pid: str, move: dict) -> str:
        source, target = area_words(self.after, move["source"]), area_words(self.after, move["target"])
        what = self._of(move["count"], self.name(pid))
        if self.actor and self.actor != pid and self.kind in ("send_back", "move_caballeros"):
            verb = "sent" if move["target"] in ("provinces", "court") else "moved"
            back = " back" if move["target"] in ("provinces", "court") else ""
            return f"{self.name(self.actor)} {verb} {what} from {source}{back} to {target}"
        return f"{what} went from {source} to {target}"

    @staticmethod
    def _of(count: int, owner: str) -> str:
        return f"{'one' if count == 1 else count} of {owner}'s Caballeros"

    def _moved(self, pid: str, lost: dict, gained: dict) -> str:
        owner, count = self.name(pid), max(sum(lost.values()), sum(gained.values()))
        what = caballeros(count) if pid == self.actor else self._of(count, owner)
        subject = f"{self.name(self.actor)} moved {what}" if self.actor else f"{what} went"
        src = listing([area_words(self.after, a) for a in lost])
        dst = (
            area_words(self.after, next(iter(gained)))
            if len(gained) == 1
            else listing([f"{n} to {area_words(self.after, a)}" for a, n in gained.items()])
        )
        if lost and gained:
            return f"{subject} from {src} to {dst}"
        if lost and self.kind == "move_caballeros":
            return f"{subject} from {src} into the Castillo"
        if lost:
            subject = subject.replace(" moved ", " sent ", 1)
            return f"{subject} from {src} back to the provinces"
        return f"{owner} gained {self._where(gained)}"

    def king_and_grandes(self) -> list[str]:
        said = []
        king_was, king_now = self.before.get("king"), self.after.get("king")
        if king_now and king_was != king_now:
            said.append(f"the King moved from {area_words(self.after, king_was)} to {area_words(self.after, king_now)}")
        before = self.players(self.before)
        for pid, p in self.players(self.after).items():
            was, now = before.get(pid, {}).get("grande"), p.get("grande")
            if now and was and was != now:
                said.append(
                    f"{self.name(pid)} moved their Grande from {area_words(self.after, was)} "
                    f"to {area_words(self.after, now)}"
                )
        return said

    def scoreboards(self) -> list[str]:
        before, after = self.before.get("mobile_scoreboards") or {}, self.after.get("mobile_scoreboards") or {}
        return [
            f"{self._scoreboard(board)} went to {area_words(self.after, where)}"
            for board, where in after.items()
            if where and before.get(board) != where
        ]

    @staticmethod
    def _scoreboard(board: str) -> str:
        """'8-4-0': the mobile scoreboard printed so; 'tile_a': a 2023 Scoring tile, by its letter."""
        if board.startswith("tile"):
            return f"Scoring tile {board.rsplit('_', 1)[-1].upper()}"
        return f"the {board} mobile scoreboard"

    def vetoes(self) -> list[str]:
        if self.kind != "veto":
            return []
        before = self.players(self.before)
        used = [
            pid
            for pid, p in self.players(self.after).items()
            if p.get("vetoes_held", 0) < before.get(pid, {}).get("vetoes_held", 0)
        ]
        if used or self.type == "veto_used":
            return [f"{self.name(pid)} used a Veto and stopped the special action" for pid in used or [self.actor]]
        return [f"{self.name(self.actor)} let the special action pass, without a Veto"]

    def scorings(self) -> list[str]:
        new = (self.after.get("scorings") or [])[len(self.before.get("scorings") or []) :]
        said = [self.scoring(s) for s in new]
        explained = defaultdict(int)
        for scoring in new:
            for line in scoring.get("lines", []):
                explained[line["player"]] += line["points"]
        before = self.players(self.before)
        other = [
            f"{self.name(pid)} {change:+d}"
            for pid, p in self.players(self.after).items()
            if (change := p.get("score", 0) - before.get(pid, {}).get("score", 0) - explained[pid])
        ]
        if other:
            said.append("points: " + ", ".join(other))
        return said

    def scoring(self, scoring: dict) -> str:
        title = scoring.get("title", "")
        general = _GENERAL_TITLE.match(title)
        special = _SPECIAL_TITLE.match(title)
        if general:
            head = f"round {general['round']} scoring"
        elif special:
            head = f"{special['who']}'s {special['card']} ({special['what']})"
        else:
            head = title or "a scoring"
        gains: dict[str, int] = defaultdict(int)
        best: dict[str, dict] = {}
        for line in scoring.get("lines", []):
            gains[line["player"]] += line["points"]
            if line.get("kind") == "place" and line["points"] > best.get(line["player"], {}).get("points", 0):
                best[line["player"]] = line
        scored = sorted((p for p in gains if gains[p] > 0), key=lambda p: -gains[p])
        if not scored:
            return f"{head}: nobody scored"
        return f"{head}: " + ", ".join(f"{self.name(p)} {gains[p]:+d}{self._best(best.get(p))}" for p in scored)

    def _best(self, line: dict | None) -> str:
        if not line:
            return ""
        tied = "tied " if str(line.get("reason", "")).startswith("tied") else ""
        place = ORDINALS.get(line.get("place", 0), "")
        return f" ({tied}{place} in {area_words(self.after, line['area'])})" if place else ""

    def round_change(self) -> list[str]:
        was, now = self.before.get("round", 0), self.after.get("round", 0)
        if self.after.get("stage") == "over" and self.before.get("stage") != "over":
            winners = [self.name(p) for p in self.after.get("winners") or []]
            return [f"the game is over: {listing(winners)} {'wins' if len(winners) == 1 else 'share the win'}"]
        if not now or now == was:
            return []
        skipped = [r for r in range(was + 1, now)]
        skip = f" (this short game skips round {listing([str(r) for r in skipped])})" if skipped else ""
        return [f"round {was} ends and round {now} begins{skip}"]

    def quiet_step(self) -> list[str]:
        """A step that changed nothing the board shows: what the table had asked for."""
        who, card = self.name(self.actor), card_words(self.after, self.asked.get("card"))
        said = {
            "special_action_started": f"{who} began the special action of {card}",
            "special_action_skipped": f"{who} did not do the special action of {card}",
            "special_action_finished": f"{who} ended the special action of {card}",
            "caballeros_placed": f"{who} placed no Caballeros",
            "extra_caballeros_placed": f"{who} placed no extra Caballeros",
            "caballeros_moved": f"{who} moved no Caballeros",
            "region_chosen": f"{who} chose the region for {card}",
            "secret_discs_revealed": "the secret discs were revealed",
            "veto_waived": f"{who} let the special action pass, without a Veto",
            "round_finished": "the round was finished",
        }.get(self.type)
        return [said] if said else []


def story(replay: Replay, number: int) -> str:
    """What happened at step `number`, in one sentence of plain text (no markup)."""
    step = replay.steps[number]
    if number == 0:
        return setup_story(replay)
    try:
        told = Told(replay, number).sentence()
    except Exception as exc:  # a view of a kind not foreseen: the table's own words, never a traceback
        log.warning("step %s could not be told: %s", number, exc)
        told = ""
    if told:
        return told + "."
    what = step.what.replace("_", " ")
    return what[:1].upper() + what[1:] + "."


def setup_story(replay: Replay) -> str:
    view = replay.steps[0].view
    players = [p for p in view.get("players", []) if p["id"] in replay.players]
    names = listing([replay.names.get(p["id"]) or look_of(p["id"]).name for p in players])
    king = view.get("king")
    where = f"; the King stands in {area_words(view, king)}" if king else ""
    court = {p.get("court") for p in players}
    home = {((view.get("regions") or {}).get(p.get("grande") or "") or {}).get(p["id"], 0) for p in players}
    at_home = f" and {caballeros(home.pop())}" if len(home) == 1 and 0 not in home else ""
    courts = f", and {caballeros(court.pop())} in their court" if len(court) == 1 and None not in court else ""
    rounds = view.get("rounds") or []
    skipped = [str(r) for r in range(1, (rounds[-1] if rounds else 0) + 1) if r not in rounds]
    short = (
        f"; a short game of {len(rounds)} rounds, from round {rounds[0]} (rounds {listing(skipped)} are skipped)"
        if rounds and skipped
        else ""
    )
    return f"The game is set up for {names}: each has their Grande{at_home} in their home region{courts}{where}{short}."


def table_facts(replay: Replay, number: int) -> list[str]:
    """What lies on the table after step `number`: the round's Action cards face up, the Power
    cards played, each court. Plain text, one line each."""
    view = replay.steps[number].view
    names = replay.names
    lines = []
    face_up = sorted((view.get("action_cards") or {}).items())
    cards = [f"{card_words(view, c, 'a card')} ({stack})" for stack, c in face_up if c]
    if cards:
        lines.append("Action cards face up (by stack): " + ", ".join(cards))
    players = [p for p in view.get("players", []) if p["id"] in replay.players]
    played = [f"{names.get(p['id'], p['id'])} {p['power_card_played']}" for p in players if p.get("power_card_played")]
    if played:
        lines.append("Power cards played: " + ", ".join(played))
    if players:
        courts = ", ".join(f"{names.get(p['id'], p['id'])} {p.get('court', 0)}" for p in players)
        lines.append("In the courts: " + courts)
    return lines
