"""The tablet's prompt builder: what it offers now, built from the engine's asks (no Kivy).

`PromptBuilder` is the public entry the table and the UI build prompts with. What every prompt
reads (the names, the board as it is now, the tower's colours, Power Shift's Modifier cards,
the public view) and the words all of them share are its base's (companion.prompts.context). Each
ask kind is made by the function registered for it in companion.prompts.registry (`PROMPTS`,
and `PRIVATE_PICKS` for what a player chooses in private); King and Intrigue's builder
registers its own (companion.prompts.king_intrigue). The shapes are in companion.prompts.prompt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.entry.facts import facts_needed, needed_words
from companion.prompts import discs, modules_2023, special, turn
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, PrivatePick, Prompt, first_sentence
from companion.prompts.registry import CASTILLO_PREFILLED, PRIVATE_PICKS, PROMPTS
from companion.words import _
from companion.words.refusals import said_words
from engine.ask_words import asked_words
from engine.board.model import CASTILLO
from engine.primitives import Ask


class PromptBuilder(PromptContext):
    """The tablet's prompts: each ask kind's made by the function registered for it (`prompts`),
    each private pick likewise (`private_picks`); the context and words are PromptContext's."""

    prompts = PROMPTS  # ask kind -> the function that makes its prompt
    private_picks = PRIVATE_PICKS  # ask kind -> the function that makes a player's private pick
    PURPOSES = discs.PURPOSES  # what a secret disc is for, by purpose
    PUBLIC_PURPOSES = discs.PUBLIC_PURPOSES

    # ---- the prompt for an ask ----------------------------------------------------------

    def build(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        """The prompt for `ask`, made by the builder its kind is registered with (`prompts`)."""
        maker = self.prompts.get(ask.kind)
        if maker is None:
            return Prompt(self.title(ask, said_words(asked_words(ask.kind))))  # a kind no builder knows
        prompt = maker(self, ask, prefill_castillo) if ask.kind in CASTILLO_PREFILLED else maker(self, ask)
        facts = facts_needed(self.board, ask)
        if facts:
            self._ask_for_facts(prompt, ask, facts)
        if ask.vetoes and ask.kind != "veto":
            prompt.choices += [
                Choice(_("{who}: Veto!").format(who=self.name(p)), {"type": "veto_used", "player": p}, style="quiet")
                for p in ask.vetoes
            ]
        return prompt

    def _ask_for_facts(self, prompt: Prompt, ask: Ask, facts) -> None:
        """A fact the rule book does not print, needed by this step: entered right here from the
        table's board (companion.entry.facts), then the step goes on; kept for the next games."""
        words = needed_words(facts, self.board.side)
        enter = _("Enter {facts} from your board").format(facts=words)
        prompt.choices.insert(0, Choice(enter, action="board_facts", style="primary"))
        if ask.kind == "turn_action":
            prompt.notes = [n for n in prompt.notes if n != _(turn.BOARD_FACT_LATER)]
            prompt.notes.append(
                _(
                    "Enter {facts} now and the special action can be done (your next games keep them), or skip it."
                ).format(facts=words)
            )
            return
        for choice in prompt.choices[1:]:
            if choice.action == "open_castillo" or choice.event == {"type": "secret_discs_revealed"}:
                choice.enabled = False  # the scoring would be refused, naming the fact
                choice.why_not = _('This general scoring needs {facts} first: tap "{enter}"').format(
                    facts=words, enter=enter
                )
        prompt.notes.insert(
            0,
            _(
                "This general scoring needs {facts}, which the rule book does not print: "
                "enter them from your board first (your next games keep them)."
            ).format(facts=words),
        )

    def sub_prompt(self, ask: Ask, key: str) -> Prompt:
        """The prompt a "sub:<key>" choice shows in place of the current one ("" : the current one)."""
        kind, _sep, arg = key.partition(":")
        if kind == "modifier" and arg in self.modifiers:
            return modules_2023.modifier_power_prompt(self, ask, arg)
        if kind == "entourage":
            return special.entourage_prompt(self, ask, special.split_from_key(arg))
        return self.build(ask)

    def private_pick(self, ask: Ask, pid: str) -> PrivatePick | None:
        """What `pid` chooses in private now, or None (`private_picks`). For their phone or the
        private screen only."""
        maker = self.private_picks.get(ask.kind)
        return maker(self, ask, pid) if maker is not None else None

    # ---- the public steps the views open by name -----------------------------------------------

    def reveal_choices(self, ask: Ask) -> dict[int, list[tuple[str, str]]]:
        return turn.reveal_choices(self, ask)

    def replenish_custom(self, ask: Ask) -> Prompt:
        return turn.replenish_custom(self, ask)

    def mobile_prompt(self, ask: Ask, sid: str) -> Prompt:
        return special.mobile_prompt(self, ask, sid)

    def power_back_choices(self, ask: Ask) -> list[Choice]:
        return special.power_back_choices(self, ask)

    def special_scoring_choices(self, ask: Ask) -> list[Choice]:
        return special.special_scoring_choices(self, ask)

    def count_castillo_prompt(self, ask: Ask) -> Prompt:
        return discs.count_castillo_prompt(self, ask)

    def secret_purpose(self, ask: Ask, pid: str | None = None) -> str:
        return discs.secret_purpose(self, ask, pid)

    def secret_options(self, ask: Ask, pid: str) -> list[tuple[str, str]]:
        return discs.secret_options(self, ask, pid)

    def modifier_label(self, mid: str, numbered: bool = True) -> str:
        return modules_2023.modifier_label(self, mid, numbered)

    # ---- a tap on what cannot be chosen ---------------------------------------------------

    def why_not_area(
        self,
        prompt: Prompt,
        area: str,
        refusal: Callable[[dict], str | None],
        entry: Mapping[str, int] | None = None,
        source: str = "",
        owner: str = "",
    ) -> str:
        """Why a tap on `area` chooses nothing at `prompt`, in one line. The engine's refusal of
        the input the tap would make (`refusal(event)`: its words and rule, None if it would
        accept it) when it refuses; else what the prompt holds back (the Castillo, when the
        tower counts it); else what the step asks for instead."""
        name = _("The Castillo") if area == CASTILLO else self.area(area)
        doing = first_sentence(prompt.hint) or _("see the choices")
        if not prompt.map_mode:
            return _("{area}: nothing is chosen on the map at this step ({doing})").format(area=name, doing=doing)
        event = tap_event(prompt, area, dict(entry or {}), source, owner)
        why = refusal(event) if event is not None else None
        if why and area == CASTILLO and any(ch.isdigit() for ch in why):
            why = None  # what lies in the Castillo is secret: no refusal that holds a figure of it
        if why:
            return first_sentence(why[:1].upper() + why[1:])
        if area == CASTILLO and prompt.map_mode == "count" and self.tower_counts(prompt.actor):
            return _("The Castillo: the tower counts the Caballeros thrown in, so it is not tapped here")
        return _("{area} cannot be chosen now ({doing})").format(area=name, doing=doing)


def tap_event(prompt: Prompt, area: str, entry: dict, source: str, owner: str) -> dict | None:
    """The input a tap on `area` would make at `prompt` (a move: from it, to anywhere offered)."""
    try:
        if prompt.map_mode == "pick" and prompt.on_area:
            return prompt.on_area(area)
        if prompt.map_mode == "count" and prompt.on_counts:
            return prompt.on_counts({**entry, area: entry.get(area, 0) + 1})
        if prompt.map_mode == "move" and prompt.on_move:
            if source:
                return prompt.on_move(source, area, owner or next(iter(prompt.sources.get(source, {})), None))
            target = next((a for a in prompt.areas if a != area), None)
            return prompt.on_move(area, target, prompt.actor) if target else None
    except (KeyError, ValueError, TypeError):  # a tap the prompt cannot turn into an input at all
        return None
    return None


# ---- the prompt for an ask --------------------------------------------------------
