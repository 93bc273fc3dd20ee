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

from companion.history.people_words import and_list, player_name
from companion.history.records import Replay
from companion.history.scoring_words import GENERAL_TITLE, SPECIAL_TITLE, scoring_what
from companion.table.undo_words import STEP_WORDS
from companion.words import N_, _, names, ngettext
from engine.board.model import CASTILLO, Board

log = logging.getLogger("companion.history.step_story")

# A scoring line's place, and a place shared with others (translated where used).
PLACES = {1: N_("first in {area}"), 2: N_("second in {area}"), 3: N_("third in {area}")}
TIED_PLACES = {1: N_("tied first in {area}"), 2: N_("tied second in {area}"), 3: N_("tied third in {area}")}
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
    """A region (or the Castillo, a space) by its printed name, in the table's language."""
    if area == CASTILLO:
        return _("the Castillo")
    if area == "provinces":
        return _("the provinces")
    if area == "court":
        return _("the court")
    board = board_of_view(view)
    if board is not None and area in board.area_index:
        return names.place(board.area_name(board.area_index[area]))
    return _plain(area)


def card_of(view: dict, card_id: str | None):
    board = board_of_view(view)
    if board is None or not card_id:
        return None
    return board.cards.get(card_id)


def card_words(view: dict, card_id: str | None, unnamed: str | None = None) -> str:
    """An Action card by its printed name (`unnamed`, else "their Action card", when the shipped
    set does not name it: a table's own card)."""
    card = card_of(view, card_id)
    if card is not None and card.name:
        return quoted(names.card(card.name))
    return _("their Action card") if unnamed is None else unnamed


def quoted(name: str) -> str:
    # Translators: a card's name quoted in a sentence ('Intrigue'); use your language's quotes
    return _("'{card}'").format(card=name)


def caballeros(n: int) -> str:
    return ngettext("a Caballero", "{n} Caballeros", n).format(n=n)


def listing(items: list[str]) -> str:
    return and_list(items)


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
        self.type = self.step.kind or step_type(self.step.what)
        if self.kind == "secret_disc":  # several are asked at once: the one whose disc is now set
            chosen = set(self.after.get("secret_discs_chosen") or [])
            chosen -= set(self.before.get("secret_discs_chosen") or [])
            self.actor = next(iter(chosen)) if len(chosen) == 1 else self.actor

    def name(self, pid: str | None) -> str:
        if not pid:
            return _("The table")
        return player_name(pid, self.replay.names.get(pid))

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
                if named is not None and named.name:
                    said.append(
                        _("{who} played Power card {card} ({name})").format(
                            who=self.name(pid), card=card, name=quoted(names.card(named.name))
                        )
                    )
                else:
                    said.append(_("{who} played Power card {card}").format(who=self.name(pid), card=card))
        return said

    def revealed_cards(self) -> list[str]:
        if self.kind != "reveal_action_cards":
            return []
        cards = [(s, c) for s, c in sorted((self.after.get("action_cards") or {}).items()) if c]
        if not cards:
            return [_("the round's Action cards were turned face up")]
        shown = listing([card_words(self.after, c, _("the card of stack {stack}").format(stack=s)) for s, c in cards])
        return [_("the round's Action cards were turned face up: {cards}").format(cards=shown)]

    def card_taken(self) -> list[str]:
        before, after = self.before.get("action_cards") or {}, self.after.get("action_cards") or {}
        taken = [before[s] for s in before if before.get(s) and s in after and after[s] is None]
        if self.kind != "choose_action_card" or len(taken) != 1:
            return []
        stack = next(s for s in before if before.get(s) == taken[0])
        name = card_words(self.before, taken[0], "")
        if not name:
            return [_("{who} took the Action card of stack {stack}").format(who=self.name(self.actor), stack=stack)]
        return [
            _("{who} took the Action card {card} (stack {stack})").format(
                who=self.name(self.actor), card=name, stack=stack
            )
        ]

    def private_choice(self) -> list[str]:
        who = self.name(self.actor)
        if self.kind == "secret_disc":
            said = _("{who} set their secret disc face down (the region stays hidden until the reveal)")
            return [said.format(who=who)]
        if self.kind == "take_back_power_card":
            return [
                _("{who} took one of their played Power cards back into their hand (which one stays secret)").format(
                    who=who
                )
            ]
        if self.kind == "choose_power_cards":
            return [_("{who} chose the Power cards they keep (which ones stay secret)").format(who=who)]
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
        moved = ", ".join(
            _("{who} {n} to {area}").format(who=self.name(pid), n=m["count"], area=area_words(self.after, m["target"]))
            for pid, m in emptied
        )
        return [_("the Castillo was emptied onto the regions of the discs: {moves}").format(moves=moved)]

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
        return listing([_("{n} in {area}").format(n=n, area=area_words(self.after, a)) for a, n in counts.items()])

    def _caballeros_of(self, pid: str, court: int, gained: dict, lost: dict, moves: dict) -> list[str]:
        name = self.name(pid)
        if court < 0 and self.kind in PLACING and pid in (self.actor, None):  # court -> board
            # Only what landed on the regions: how many went into the Castillo is the tower's
            # secret, so no sentence says it (nor the court's total, which would give it away).
            placed = sum(gained.values())
            if not gained:
                return [_("{who} placed from the court").format(who=name)]
            if len(gained) == 1:
                area = area_words(self.after, next(iter(gained)))
                return [
                    ngettext(
                        "{who} placed a Caballero from the court in {area}",
                        "{who} placed {n} Caballeros from the court in {area}",
                        placed,
                    ).format(who=name, n=placed, area=area)
                ]
            return [
                ngettext(
                    "{who} placed a Caballero from the court: {where}",
                    "{who} placed {n} Caballeros from the court: {where}",
                    placed,
                ).format(who=name, n=placed, where=self._where(gained))
            ]
        said = []
        if court > 0:
            if lost:
                others = listing(
                    [_("{n} from {area}").format(n=n, area=area_words(self.after, a)) for a, n in lost.items()]
                )
                lost = {}
                said.append(
                    ngettext(
                        "{who} moved a Caballero from the provinces and {others} to the court",
                        "{who} moved {n} Caballeros from the provinces and {others} to the court",
                        court,
                    ).format(who=name, n=court, others=others)
                )
            else:
                said.append(
                    ngettext(
                        "{who} moved a Caballero from the provinces to the court",
                        "{who} moved {n} Caballeros from the provinces to the court",
                        court,
                    ).format(who=name, n=court)
                )
        elif court == 0 and pid == self.actor and self.kind == "replenish":
            said.append(_("{who} moved no Caballeros to the court").format(who=name))
        elif court < 0:
            said.append(
                _("{caballeros} went from the court back to the provinces").format(caballeros=self._of(-court, name))
            )
        if moves.get(pid):  # the outcome says where each went
            said += [self._outcome_move(pid, m) for m in moves[pid]]
        elif lost or gained:
            said.append(self._moved(pid, lost, gained))
        return said

    def _outcome_move(self, pid: str, move: dict) -> str:
        source, target = area_words(self.after, move["source"]), area_words(self.after, move["target"])
        what = self._of(move["count"], self.name(pid))
        if self.actor and self.actor != pid and self.kind in ("send_back", "move_caballeros"):
            actor = self.name(self.actor)
            if move["target"] in ("provinces", "court"):
                said = _("{who} sent {caballeros} from {source} back to {target}")
            else:
                said = _("{who} moved {caballeros} from {source} to {target}")
            return said.format(who=actor, caballeros=what, source=source, target=target)
        return _("{caballeros} went from {source} to {target}").format(caballeros=what, source=source, target=target)

    @staticmethod
    def _of(count: int, owner: str) -> str:
        return ngettext("one of {owner}'s Caballeros", "{n} of {owner}'s Caballeros", count).format(
            n=count, owner=owner
        )

    def _moved(self, pid: str, lost: dict, gained: dict) -> str:
        owner, count = self.name(pid), max(sum(lost.values()), sum(gained.values()))
        what = caballeros(count) if pid == self.actor else self._of(count, owner)
        src = listing([area_words(self.after, a) for a in lost])
        dst = (
            area_words(self.after, next(iter(gained)))
            if len(gained) == 1
            else listing([_("{n} to {area}").format(n=n, area=area_words(self.after, a)) for a, n in gained.items()])
        )
        actor = self.name(self.actor) if self.actor else None
        if lost and gained:
            said = (
                _("{who} moved {caballeros} from {source} to {target}")
                if actor
                else _("{caballeros} went from {source} to {target}")
            )
        elif lost and self.kind == "move_caballeros":
            said = (
                _("{who} moved {caballeros} from {source} into the Castillo")
                if actor
                else _("{caballeros} went from {source} into the Castillo")
            )
        elif lost:
            said = (
                _("{who} sent {caballeros} from {source} back to the provinces")
                if actor
                else _("{caballeros} went from {source} back to the provinces")
            )
        else:
            return _("{who} gained {where}").format(who=owner, where=self._where(gained))
        return said.format(who=actor, caballeros=what, source=src, target=dst)

    def king_and_grandes(self) -> list[str]:
        said = []
        king_was, king_now = self.before.get("king"), self.after.get("king")
        if king_now and king_was != king_now:
            said.append(
                _("the King moved from {source} to {target}").format(
                    source=area_words(self.after, king_was), target=area_words(self.after, king_now)
                )
            )
        before = self.players(self.before)
        for pid, p in self.players(self.after).items():
            was, now = before.get(pid, {}).get("grande"), p.get("grande")
            if now and was and was != now:
                said.append(
                    _("{who} moved their Grande from {source} to {target}").format(
                        who=self.name(pid), source=area_words(self.after, was), target=area_words(self.after, now)
                    )
                )
        return said

    def scoreboards(self) -> list[str]:
        before, after = self.before.get("mobile_scoreboards") or {}, self.after.get("mobile_scoreboards") or {}
        return [
            _("{scoreboard} went to {area}").format(
                scoreboard=self._scoreboard(board), area=area_words(self.after, where)
            )
            for board, where in after.items()
            if where and before.get(board) != where
        ]

    @staticmethod
    def _scoreboard(board: str) -> str:
        """'8-4-0': the mobile scoreboard printed so; 'tile_a': a 2023 Scoring tile, by its letter."""
        if board.startswith("tile"):
            return _("Scoring tile {letter}").format(letter=board.rsplit("_", 1)[-1].upper())
        return _("the {board} mobile scoreboard").format(board=board)

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
            return [
                _("{who} used a Veto and stopped the special action").format(who=self.name(pid))
                for pid in used or [self.actor]
            ]
        return [_("{who} let the special action pass, without a Veto").format(who=self.name(self.actor))]

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
            said.append(_("points: {changes}").format(changes=", ".join(other)))
        return said

    def scoring(self, scoring: dict) -> str:
        title = scoring.get("title", "")
        general = GENERAL_TITLE.match(title)
        special = SPECIAL_TITLE.match(title)
        if general:
            head = _("round {round} scoring").format(round=general["round"])
        elif special:
            head = _("{who}'s {card} ({what})").format(
                who=special["who"], card=names.card(special["card"]), what=scoring_what(special["what"])
            )
        else:
            head = title or _("a scoring")
        gains: dict[str, int] = defaultdict(int)
        best: dict[str, dict] = {}
        for line in scoring.get("lines", []):
            gains[line["player"]] += line["points"]
            if line.get("kind") == "place" and line["points"] > best.get(line["player"], {}).get("points", 0):
                best[line["player"]] = line
        scored = sorted((p for p in gains if gains[p] > 0), key=lambda p: -gains[p])
        if not scored:
            return _("{scoring}: nobody scored").format(scoring=head)
        gained = ", ".join(f"{self.name(p)} {gains[p]:+d}{self._best(best.get(p))}" for p in scored)
        return _("{scoring}: {gains}").format(scoring=head, gains=gained)

    def _best(self, line: dict | None) -> str:
        if not line:
            return ""
        tied = str(line.get("reason", "")).startswith("tied")
        place = (TIED_PLACES if tied else PLACES).get(line.get("place", 0))
        return f" ({_(place).format(area=area_words(self.after, line['area']))})" if place else ""

    def round_change(self) -> list[str]:
        was, now = self.before.get("round", 0), self.after.get("round", 0)
        if self.after.get("stage") == "over" and self.before.get("stage") != "over":
            winners = [self.name(p) for p in self.after.get("winners") or []]
            if len(winners) == 1:
                return [_("the game is over: {who} wins").format(who=winners[0])]
            return [_("the game is over: {who} share the win").format(who=listing(winners))]
        if not now or now == was:
            return []
        skipped = [r for r in range(was + 1, now)]
        if skipped:
            return [
                _("round {was} ends and round {now} begins (this short game skips round {skipped})").format(
                    was=was, now=now, skipped=listing([str(r) for r in skipped])
                )
            ]
        return [_("round {was} ends and round {now} begins").format(was=was, now=now)]

    def quiet_step(self) -> list[str]:
        """A step that changed nothing the board shows: what the table had asked for."""
        who, card = self.name(self.actor), card_words(self.after, self.asked.get("card"))
        said = QUIET_STEPS.get(self.type)
        return [_(said).format(who=who, card=card)] if said else []


# What a step that changed nothing the board shows says, by its input's type.
QUIET_STEPS = {
    "special_action_started": N_("{who} began the special action of {card}"),
    "special_action_skipped": N_("{who} did not do the special action of {card}"),
    "special_action_finished": N_("{who} ended the special action of {card}"),
    "caballeros_placed": N_("{who} placed no Caballeros"),
    "extra_caballeros_placed": N_("{who} placed no extra Caballeros"),
    "caballeros_moved": N_("{who} moved no Caballeros"),
    "region_chosen": N_("{who} chose the region for {card}"),
    "secret_discs_revealed": N_("the secret discs were revealed"),
    "veto_waived": N_("{who} let the special action pass, without a Veto"),
    "round_finished": N_("the round was finished"),
}


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


# The setup's first sentence: whether every player has the same Caballeros at home, and in court.
SETUP_SENTENCES = {
    (True, True): N_(
        "The game is set up for {names}: each has their Grande and {home} in their home region, "
        "and {court} in their court"
    ),
    (True, False): N_("The game is set up for {names}: each has their Grande and {home} in their home region"),
    (False, True): N_(
        "The game is set up for {names}: each has their Grande in their home region, and {court} in their court"
    ),
    (False, False): N_("The game is set up for {names}: each has their Grande in their home region"),
}


def setup_story(replay: Replay) -> str:
    view = replay.steps[0].view
    players = [p for p in view.get("players", []) if p["id"] in replay.players]
    who = listing([player_name(p["id"], replay.names.get(p["id"])) for p in players])
    court = {p.get("court") for p in players}
    home = {((view.get("regions") or {}).get(p.get("grande") or "") or {}).get(p["id"], 0) for p in players}
    at_home = caballeros(home.pop()) if len(home) == 1 and 0 not in home else ""
    courts = caballeros(court.pop()) if len(court) == 1 and None not in court else ""
    parts = [_(SETUP_SENTENCES[bool(at_home), bool(courts)]).format(names=who, home=at_home, court=courts)]
    king = view.get("king")
    if king:
        parts.append(_("the King stands in {area}").format(area=area_words(view, king)))
    rounds = view.get("rounds") or []
    skipped = [str(r) for r in range(1, (rounds[-1] if rounds else 0) + 1) if r not in rounds]
    if rounds and skipped:
        parts.append(
            _("a short game of {n} rounds, from round {first} (rounds {skipped} are skipped)").format(
                n=len(rounds), first=rounds[0], skipped=listing(skipped)
            )
        )
    return "; ".join(parts) + "."


def table_facts(replay: Replay, number: int) -> list[str]:
    """What lies on the table after step `number`: the round's Action cards face up, the Power
    cards played, each court. Plain text, one line each."""
    view = replay.steps[number].view
    lines = []
    face_up = sorted((view.get("action_cards") or {}).items())
    cards = [f"{card_words(view, c, _('a card'))} ({stack})" for stack, c in face_up if c]
    if cards:
        lines.append(_("Action cards face up (by stack): {cards}").format(cards=", ".join(cards)))
    players = [p for p in view.get("players", []) if p["id"] in replay.players]
    name = lambda p: player_name(p["id"], replay.names.get(p["id"]))
    played = [f"{name(p)} {p['power_card_played']}" for p in players if p.get("power_card_played")]
    if played:
        lines.append(_("Power cards played: {cards}").format(cards=", ".join(played)))
    if players:
        courts = ", ".join(f"{name(p)} {p.get('court', 0)}" for p in players)
        lines.append(_("In the courts: {courts}").format(courts=courts))
    return lines
