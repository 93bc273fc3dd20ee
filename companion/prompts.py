"""What the tablet offers now, as plain data: the phase bar's words, the legal
choices as buttons, and how taps on the map become an event.

Built from the engine's `asked()` only, so no rule lives in a widget: the UI
draws a Prompt and sends back what it builds. Pure Python, tested without Kivy.

Map modes:
  None        the map only shows the board
  "pick"      tapping one of `areas` submits `on_area(area)`
  "count"     taps add Caballeros to `areas` (up to `limit` in all); Confirm
              submits `on_counts(counts)`
  "move"      tap a source, then a target: `on_move(source, target)` (one Caballero)
  "board"     scoring-only board entry: tap adds the selected colour's Caballero
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.board import CASTILLO, Board, classic_board
from engine.flow import Ask

STAGE_WORDS = {
    "reveal": "action cards", "power": "power cards", "replenish": "replenish the court",
    "choose_card": "action cards", "turn": "turn", "veto_window": "veto", "special": "special action",
    "scoring_discs": "general scoring", "over": "game over", "play": "play the round",
}


@dataclass
class Choice:
    label: str
    event: Optional[dict] = None      # submitted as it is
    events: Optional[list] = None     # several inputs one tap stands for, all or none
    action: Optional[str] = None      # a UI step instead: "secret:<pid>", "open_castillo", "enter_board" ...
    style: str = "normal"             # normal | primary | quiet
    enabled: bool = True              # shown but not tappable (a value already played, say)
    places_first: bool = False        # Caballeros entered on the map are placed before this


@dataclass
class Prompt:
    title: str                          # "Round 4 - power cards - Yellow plays next"
    hint: str = ""
    actor: Optional[str] = None         # whose colour the bar shows
    choices: list[Choice] = field(default_factory=list)
    map_mode: Optional[str] = None
    areas: list[str] = field(default_factory=list)
    limit: int = 0
    prefill: dict[str, int] = field(default_factory=dict)
    on_area: Optional[Callable[[str], dict]] = None
    on_counts: Optional[Callable[[dict[str, int]], dict]] = None
    on_move: Optional[Callable[[str, str], dict]] = None
    sources: dict[str, dict[str, int]] = field(default_factory=dict)   # move: area -> owner -> movable
    private_for: Optional[str] = None   # the choice is secret: pass the tablet to this player
    steppers: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # key -> (label, min, max)
    columns: int = 1                    # how the choices are laid out (power cards: a grid)
    confirm_empty: str = ""             # Confirm with nothing entered asks this first ("" : no question)
    notes: list[str] = field(default_factory=list)  # read-only lines under the choices


class PromptBuilder:
    def __init__(self, names: dict[str, str], board: Board | None = None, castillo_by_tower: bool = False):
        self.names = names
        self.board = board or classic_board()
        # With a tower, the Castillo's share of a placement is what it counted: tapping the
        # Castillo as well would count one cube twice, so it is not tappable then.
        self.castillo_by_tower = castillo_by_tower
        # Cards that read the same (the chosen-region scoring on stacks 2 and 3) are told apart
        seen: dict[tuple[str, str], int] = {}
        for c in self.board.cards.values():
            seen[(c.name, c.text)] = seen.get((c.name, c.text), 0) + 1
        self._twins = {key for key, n in seen.items() if n > 1}

    def _placeable(self, areas) -> list[str]:
        return [a for a in areas if not (self.castillo_by_tower and a == CASTILLO)]

    # ---- words --------------------------------------------------------------------

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def area(self, aid: str) -> str:
        return self.board.area_name(self.board.area_index[aid])

    def card(self, cid: Optional[str]) -> str:
        if cid is None:
            return ""
        if cid == "veto":
            return "Veto"
        card = self.board.cards.get(cid)
        return card.name if card else cid

    def card_label(self, cid: str) -> str:
        """Name and text: several cards share a name (nine are called Intrigue)."""
        card = self.board.cards.get(cid)
        if card is None:
            return self.card(cid)
        text = card.text.removeprefix("You may ").rstrip(".")
        if len(text) > 90:  # cut at a word, never mid-word; buttons wrap onto two lines
            text = text[:88].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        twin = f" (stack {card.stack}, places {card.placement})" if (card.name, card.text) in self._twins else ""
        return f"{card.name}: {text}{twin}"

    def title(self, ask: Ask, doing: str) -> str:
        return f"Round {ask.round} - {STAGE_WORDS.get(ask.stage, ask.stage)} - {doing}"

    # ---- the prompt for an ask --------------------------------------------------------

    def build(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        maker = getattr(self, f"_{ask.kind}", None)
        if maker is None:
            return Prompt(self.title(ask, ask.kind.replace("_", " ")))
        prompt = maker(ask, prefill_castillo) if ask.kind in ("turn_action", "place_extra") else maker(ask)
        if ask.vetoes and ask.kind != "veto":
            prompt.choices += [Choice(f"{self.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="quiet")
                               for p in ask.vetoes]
        return prompt

    def _reveal_action_cards(self, ask: Ask) -> Prompt:
        return Prompt(self.title(ask, "turn up one card on each stack"),
                      "Pick the card showing on each stack, then Reveal.", actor=None,
                      choices=[Choice("Turn up the cards", action="reveal_cards", style="primary")])

    def reveal_choices(self, ask: Ask) -> dict[int, list[tuple[str, str]]]:
        """Stack -> (card id, card name) the table may have turned up."""
        return {int(s): [(cid, self.card_label(cid)) for cid in sorted(cards)]
                for s, cards in ask.options["stacks"].items()}

    def _play_power_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        # The hand is private: only what everyone knows is greyed out (values played this
        # round, and this player's earlier ones); the engine refuses any other card not held.
        gone = set(ask.options.get("unavailable", ()))
        choices = [Choice(str(v), {"type": "power_card_played", "player": pid, "card": v}, enabled=v not in gone)
                   for v in range(1, 14)]
        stacks = ask.options.get("stacks", {})
        notes = ["Face up now:"] + [self.card_label(cid) for _, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))]
        return Prompt(self.title(ask, f"{self.name(pid)} plays next"),
                      f"{self.name(pid)}: tap the Power card you laid down.", actor=pid, choices=choices,
                      columns=4, notes=notes if stacks else [])

    def _replenish(self, ask: Ask) -> Prompt:
        """At a turn's start one tap takes the full replenishment and the action card (the
        usual case); anything else goes through `replenish_custom`."""
        pid = ask.players[0]
        most = ask.options.get("max", 0)
        stacks = ask.options.get("stacks")
        if not stacks:  # The Court card
            return self.replenish_custom(ask)
        who = self.name(pid)
        full = {"type": "court_replenished", "player": pid, "from_provinces": most, "from_regions": {}}
        choices = [Choice(self.card_label(cid), events=[full, {"type": "action_card_chosen", "player": pid,
                                                               "stack": int(s)}])
                   for s, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))]
        choices.append(Choice("Other replenishment: fewer, or from the board", action="replenish_custom",
                              style="quiet"))
        moved = f"{most} Caballero{'s' if most != 1 else ''} from the provinces to the court, then " if most else ""
        return Prompt(self.title(ask, f"{who} replenishes and takes an action card"),
                      f"{who}: {moved}tap the action card taken.", actor=pid, choices=choices)

    def replenish_custom(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        most = ask.options.get("max", 0)
        return Prompt(self.title(ask, f"{self.name(pid)} replenishes"),
                      f"Up to {most} from the provinces to the court. When the provinces run short, "
                      "tap regions to take them from the board.",
                      actor=pid, map_mode="count", areas=list(ask.options.get("regions", {})), limit=most,
                      steppers={"__provinces__": ("from the provinces", 0, most)},
                      prefill={"__provinces__": most},
                      confirm_empty=f"Move no Caballeros to {self.name(pid)}'s court?",
                      on_counts=lambda counts: {"type": "court_replenished", "player": pid,
                                                "from_provinces": counts.pop("__provinces__", 0),
                                                "from_regions": counts})

    def _choose_action_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        choices = [Choice(self.card_label(cid), {"type": "action_card_chosen", "player": pid, "stack": int(s)})
                   for s, cid in sorted(ask.options["stacks"].items(), key=lambda kv: int(kv[0]))]
        return Prompt(self.title(ask, f"{self.name(pid)} takes an action card"),
                      f"{self.name(pid)}: which card did you take?", actor=pid, choices=choices)

    def _turn_action(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        pid = ask.players[0]
        place, special = ask.options["place"], ask.options["special"]
        card = self.card(ask.card)
        prompt = Prompt(self.title(ask, f"{self.name(pid)} plays {card}"), actor=pid)
        hints = []
        if place:
            where = " (the tower counts the Castillo)" if self.castillo_by_tower else ""
            hints.append(f"tap regions to place up to {place['max']} Caballeros{where}")
            prompt.map_mode, prompt.areas, prompt.limit = "count", self._placeable(place["areas"]), place["max"]
            prompt.prefill = {CASTILLO: prefill_castillo} if prefill_castillo else {}
            prompt.on_counts = lambda counts: {"type": "caballeros_placed", "player": pid,
                                               "placements": {a: c for a, c in counts.items() if c}}
        if special:
            hints.append(special["text"])
            card_effect = getattr(self.board.cards.get(ask.card), "effect", None)
            for option in special.get("options") or [None]:
                label = f"Special: {option.replace('_', ' ')}" if option else "Do the special action"
                if card_effect == "score_castillo":
                    # Lifted and counted first, as at a general scoring: the tower's count, checked
                    prompt.choices.append(Choice(label, action="count_castillo", places_first=bool(place)))
                    continue
                prompt.choices.append(Choice(label, {"type": "special_action_started", "player": pid,
                                                     "option": option}, places_first=bool(place)))
            prompt.choices.append(Choice("Skip the special action",
                                         {"type": "special_action_skipped", "player": pid}, style="quiet",
                                         places_first=bool(place)))
        prompt.hint = f"{self.name(pid)}: " + "; or ".join(hints)
        if place:
            prompt.confirm_empty = (f"Place no Caballeros and end {self.name(pid)}'s turn?" if not special else
                                    f"Place no Caballeros? {self.name(pid)} then does the special action.")
        return prompt

    def _veto(self, ask: Ask) -> Prompt:
        against = ask.options["against"]
        choices = []
        for p in ask.players:
            choices.append(Choice(f"{self.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="primary"))
            choices.append(Choice(f"{self.name(p)}: no veto", {"type": "veto_waived", "player": p}))
        return Prompt(self.title(ask, f"may anyone stop {self.name(against)}?"),
                      f"{', '.join(self.name(p) for p in ask.players)} may veto {self.card(ask.card)}.",
                      actor=ask.players[0], choices=choices)

    def _move_caballeros(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        o = ask.options
        prompt = Prompt(self.title(ask, f"{self.name(pid)} moves Caballeros"),
                        f"{self.card(ask.card)}: tap a region to take from, then where it goes "
                        f"({o['left']} left).", actor=pid, map_mode="move", sources=o["sources"],
                        areas=list(o["targets"]))
        prompt.on_move = lambda source, target, owner=None: {
            "type": "caballeros_moved", "player": pid, "owner": owner or pid, "source": source,
            "target": target, "count": 1}
        if o.get("can_finish"):
            prompt.choices.append(Choice("Finished moving", {"type": "special_action_finished", "player": pid}))
        return prompt

    def _place_extra(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        pid = ask.players[0]
        most = ask.options["max"]
        return Prompt(self.title(ask, f"{self.name(pid)} places extra Caballeros"),
                      f"Tap any regions (not the King's) to place up to {most}, then Confirm.", actor=pid,
                      map_mode="count", areas=self._placeable(ask.options["areas"]), limit=most,
                      prefill={CASTILLO: prefill_castillo} if prefill_castillo else {},
                      on_counts=lambda counts: {"type": "extra_caballeros_placed", "player": pid,
                                                "placements": {a: c for a, c in counts.items() if c}})

    def _send_back(self, ask: Ask) -> Prompt:
        chooser = ask.players[0]
        owner, opts = next(iter(ask.options["owners"].items()))
        count = opts["count"]
        where = " or the court" if opts["court"] else ""
        return Prompt(self.title(ask, f"{self.name(chooser)} sends {self.name(owner)}'s Caballeros back"),
                      f"Tap {count} of {self.name(owner)}'s Caballeros to send to the provinces "
                      f"(from regions{where}), then Confirm.", actor=chooser,
                      map_mode="count", areas=list(opts["regions"]), limit=count,
                      steppers={"__court__": ("from the court", 0, opts["court"])} if opts["court"] else {},
                      on_counts=lambda counts: {"type": "caballeros_sent_back", "player": chooser,
                                                "owner": owner, "from_court": counts.pop("__court__", 0),
                                                "from_regions": {a: c for a, c in counts.items() if c}})

    PURPOSES = {
        "castillo_destination": "the region your Caballeros in the Castillo go to at this general scoring "
                                "(the King's region sends them to your court)",
        "send_back": "the region you send Caballeros back to the provinces from",
        "eviction_destination": "where your Caballeros leave the evicted region to (the King's region or the "
                                "same region: back to your court)",
        "special_scoring": "the region you want scored: it is scored only if nobody else picks it",
    }

    def secret_purpose(self, ask: Ask) -> str:
        """What a secret disc is for, in words, for the private pick screen."""
        purpose = ask.options.get("purpose", "")
        return self.PURPOSES.get(purpose, purpose.replace("_", " "))

    def _secret_disc(self, ask: Ask) -> Prompt:
        purpose = ask.options["purpose"].replace("_", " ")
        choices = [Choice(f"{self.name(p)}: secret disc", action=f"secret:{p}") for p in ask.players]
        chosen = ask.options.get("chosen", [])
        done = f" Chosen: {', '.join(self.name(p) for p in chosen)}." if chosen else ""
        return Prompt(self.title(ask, f"secret discs ({purpose})"),
                      f"Waiting for {', '.join(self.name(p) for p in ask.players)} to set their disc, on their "
                      f"phone or here behind a private screen.{done}", choices=choices)

    def secret_options(self, ask: Ask, pid: str) -> list[tuple[str, str]]:
        """(region id, name) a player may set the disc to: for the private screen only."""
        return [(r, self.area(r)) for r in ask.options["regions"][pid]]

    def _reveal_secret_discs(self, ask: Ask) -> Prompt:
        if ask.options["purpose"] == "castillo_destination":
            return Prompt(self.title(ask, "everyone has chosen"), "Lift the Castillo: open it and check the count.",
                          choices=[Choice("Open the Castillo", action="open_castillo", style="primary")])
        return Prompt(self.title(ask, "everyone has chosen"), "All discs are turned up together.",
                      choices=[Choice("Reveal the discs", {"type": "secret_discs_revealed"}, style="primary")])

    def count_castillo_prompt(self, ask: Ask) -> Prompt:
        """The Castillo scoring card's first step: lift the Castillo and count, then it is scored."""
        pid = ask.players[0]
        return Prompt(self.title(ask, f"{self.name(pid)} scores the Castillo"),
                      "Lift the Castillo: open it and check the count; then it is scored (a Veto may still stop it).",
                      actor=pid, choices=[Choice("Open the Castillo", action="open_castillo", style="primary")])

    def _count_castillo(self, ask: Ask) -> Prompt:
        return Prompt(self.title(ask, "everyone has chosen"), "Lift the Castillo: open it and check the count.",
                      choices=[Choice("Open the Castillo", action="open_castillo", style="primary")])

    def _choose_region(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        purpose = ask.options["purpose"].replace("_", " ")
        return Prompt(self.title(ask, f"{self.name(pid)} chooses a region"),
                      f"{self.card(ask.card)}: tap the region ({purpose}).", actor=pid, map_mode="pick",
                      areas=list(ask.options["regions"]),
                      on_area=lambda a: {"type": "region_chosen", "player": pid, "region": a})

    def _place_mobile_scoreboard(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        moves = ask.options["moves"]
        prompt = Prompt(self.title(ask, f"{self.name(pid)} places a mobile scoreboard"),
                        "Choose the scoreboard, then tap where it goes.", actor=pid)
        prompt.choices = [Choice(f"Scoreboard {sid}", action=f"mobile:{sid}") for sid in moves]
        return prompt

    def mobile_prompt(self, ask: Ask, sid: str) -> Prompt:
        pid = ask.players[0]
        return Prompt(self.title(ask, f"{self.name(pid)} places scoreboard {sid}"), "Tap where it goes.",
                      actor=pid, map_mode="pick", areas=list(ask.options["moves"][sid]),
                      on_area=lambda a: {"type": "mobile_scoreboard_placed", "player": pid, "scoreboard": sid,
                                         "area": a})

    def _take_back_power_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        return Prompt(self.title(ask, f"{self.name(pid)} takes back a Power card"),
                      "Secret: the card goes back to the hand unseen.", actor=pid,
                      choices=[Choice(f"{self.name(pid)} picks here", action=f"powerback:{pid}")],
                      private_for=pid)

    def power_back_choices(self, ask: Ask) -> list[Choice]:
        pid = ask.players[0]
        return [Choice(str(c), {"type": "power_card_taken_back", "player": pid, "card": c})
                for c in ask.options["cards"]]

    def _move_grande(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        return Prompt(self.title(ask, f"{self.name(pid)} moves their Grande"), "Tap the Grande's new region.",
                      actor=pid, map_mode="pick", areas=list(ask.options["regions"]),
                      on_area=lambda a: {"type": "grande_moved", "player": pid, "region": a})

    def _move_king(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        return Prompt(self.title(ask, f"{self.name(pid)} moves the King"), "Tap the King's new region.",
                      actor=pid, map_mode="pick", areas=list(ask.options["regions"]),
                      on_area=lambda a: {"type": "king_moved", "player": pid, "region": a})

    def _play_round(self, ask: Ask) -> Prompt:
        last = ask.options.get("general_scoring_next")
        return Prompt(self.title(ask, "the table plays"),
                      "Play the round on the board. Enter the board before a scoring; "
                      + ("a general scoring follows this round." if last else "then finish the round."),
                      choices=[Choice("Enter the board", action="enter_board"),
                               Choice("Special scoring", action="special_scoring"),
                               Choice("Round finished", {"type": "round_finished"}, style="primary")])

    def _game_over(self, ask: Ask) -> Prompt:
        winners = ask.options.get("winners", [])
        return Prompt(f"Game over - El Grande: {' and '.join(self.name(p) for p in winners)}",
                      choices=[Choice("Final standings", action="standings", style="primary")])

    def special_scoring_choices(self, ask: Ask) -> list[Choice]:
        kinds = [k for k in ask.options["special_kinds"] if k != "region:ID"]
        words = {"4": 'all "4" regions', "5": 'all "5" regions', "6-7": 'all "6-7" regions',
                 "castillo": "the Castillo", "first-only": "every region, 1st place only",
                 "most": "regions with the most Caballeros", "least": "regions with the fewest"}
        out = [Choice(words.get(k, k), {"type": "special_scored", "kind": k}) for k in kinds]
        out += [Choice(self.area(r), {"type": "special_scored", "kind": f"region:{r}"})
                for r in self.board.region_ids]
        return out
