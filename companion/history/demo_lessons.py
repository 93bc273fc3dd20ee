"""The demo's teaching words: for someone who has never played, why a step of the demo game
happened and what it means, in one or two sentences. The facts are the classic rule book's
(1995); the words are the project's own, here, read by companion.history.step_story.lesson.
Pure: reads the demo replay's public views, no UI."""

from __future__ import annotations

from companion.history.records import Replay
from companion.history.step_story import Told, board_of_view, card_of, card_words, listing
from companion.words import N_, _, names, ngettext

OPENING = N_(
    "El Grande is a game of majorities: the players place their Caballeros in the regions of Spain, "
    "and after rounds 3, 6 and 9 every region pays points to the players with the most, second most "
    "and third most Caballeros there."
)
SHORT_GAME = N_(
    "The demo starts at round 2 because it is the rule book's short game of six rounds ({rounds}); "
    "round 1 is played like every other round."
)
REVEAL = N_(
    "A round begins by turning the top card of each of the five Action card stacks face up; each player "
    "will take one this round. The stack's number is how many Caballeros the card lets its taker place, "
    "and each card also has a special action."
)
POWER = N_(
    "{who}'s Power card {card} brings {brings} from the provinces to the court, and sets the order of "
    "turns: the highest card takes its turn first and chooses its Action card first."
)
POWER_AFTER = N_(
    "Nobody may play a value already played this round, and a played card is gone for the rest of the game."
)
REPLENISH = N_(
    "At the start of a turn a player moves Caballeros from the provinces, their reserve beside the board, "
    "to their court, up to the number on their Power card ({brings}): only Caballeros waiting in the court "
    "can be placed on the board."
)
REPLENISH_NONE = N_("A high card brings few Caballeros or none: the price of going first.")
REPLENISH_FEWER = N_("A player may also move fewer, or none.")
EXTRA = N_(
    "The extra Caballeros of this Intrigue card may go into any region but the King's, not only next to the King."
)
CHOSEN = N_(
    "{who} took {card}: it lets them place up to {places} from the court, and its special action says: "
    "\u201c{text}\u201d"
)
CHOSEN_PLAIN = N_("{who} took {card}: it lets them place Caballeros from the court and do its special action.")
PLACED = N_(
    "New Caballeros may only go into the regions next to the King's region (never into the King's region "
    "itself) or into the Castillo."
)
CASTILLO = N_(
    "The Castillo is the tower: Caballeros thrown in stay hidden until it is scored, and at a general "
    "scoring they go to the region their owner chose in secret."
)
PLACED_NONE = N_("A player may place fewer Caballeros than the card allows, or none.")
STARTED = N_(
    "A turn has two parts, in either order: placing Caballeros from the court, and the Action card's "
    "special action; whichever comes first is finished before the other."
)
SKIPPED = N_("A player may always leave the special action of their card undone, when it would help the others more.")
KING = N_(
    "The King's region is closed: no Caballero, Grande or scoreboard enters or leaves it, and new "
    "Caballeros must go next to it. Whoever alone has the most Caballeros there gets 2 extra points each "
    "time it is scored."
)
GRANDE = N_(
    "A Grande marks its owner's home region and never counts as a Caballero: whoever alone has the most "
    "Caballeros in their own home region gets 2 extra points each time it is scored."
)
MOBILE = N_(
    "A mobile scoreboard covers the printed points of a region (or of the Castillo) for every scoring "
    "while it lies there."
)
DISC_CASTILLO = N_(
    "Before a general scoring each player turns their secret disc to the region where their Caballeros in "
    "the Castillo will go, face down: nobody sees a choice until all are revealed together."
)
DISC_CARD = N_(
    "The card asks for a region chosen in secret on the disc: nobody sees a choice until all are revealed together."
)
REVEALED = N_("The discs are revealed together, and each player's Caballeros go where their own disc says.")
SENT_BACK = N_(
    "Caballeros sent back go to the provinces, the reserve beside the board: only a later turn's Power "
    "card brings them back to the court."
)
MOVED = N_(
    "An Intrigue card moves Caballeros already on the board to any region except the King's (or into the "
    "Castillo, never out of it): a quiet way to take over a majority."
)
VETO_USED = N_("A Veto, taken from stack 2, stops one special action of another player, in its round or the next.")
VETO_ASKED = N_(
    "Whoever holds a Veto is asked before each special action whether to stop it; letting it pass keeps the Veto."
)
TAKEN_BACK = N_(
    "The 'Power Cards' card takes one played Power card back into the hand, to play it again in a later "
    "round; which one is the player's secret."
)
REGION = N_("{who} names the region for {card}: \u201c{text}\u201d")
GENERAL = N_(
    "A general scoring comes after rounds 3, 6 and 9: the Castillo is scored first, its Caballeros then go "
    "to the regions on their owners' discs, and then every region pays its scoreboard's points to its "
    "first, second and third most Caballeros (tied players take the next lower place's points)."
)
TO_COURT = N_("Caballeros whose disc named the King's region go back to their owner's court instead.")
SPECIAL = N_(
    "A special scoring pays the regions its card names at once, exactly like a general scoring, King's "
    "and home bonuses included; Caballeros in the Castillo stay inside."
)
ROUND_END = N_(
    "The round is over: the played Power cards are gone for good, and {start}, who played the lowest, "
    "starts round {now}."
)
ROUND_END_SKIP = N_(
    "The round is over: the played Power cards are gone for good, and {start}, who played the lowest, "
    "starts round {now} (this short demo skips round {skipped}, as the rule book's six-round game does)."
)
GAME_END = N_(
    "The game ends after the third general scoring: the most points wins, and players tied for the most "
    "share the victory."
)


def lesson_of(replay: Replay, number: int) -> str:
    """Why step `number` of the demo happened, for someone who has never played."""
    if number == 0:
        rounds = replay.steps[0].view.get("rounds") or []
        if rounds and rounds[0] != 1:
            return _(OPENING) + " " + _(SHORT_GAME).format(rounds=listing([str(r) for r in rounds]))
        return _(OPENING)
    told = Told(replay, number)
    return " ".join(part for part in (_why(told), _round_words(told)) if part).strip()


def _said(*messages: str) -> str:
    """Whole sentences, each from the catalogue, one after the other ('' ones left out)."""
    return " ".join(_(m) for m in messages if m)


def _brings(view: dict, card) -> tuple[str, int | None]:
    board = board_of_view(view)
    count = board.replenish.get(card) if board is not None and isinstance(card, int) else None
    if count is None:
        return _("Caballeros"), None
    if count == 0:
        return _("no Caballeros"), count
    if count == 1:
        return _("1 Caballero"), count
    return ngettext("up to {n} Caballero", "up to {n} Caballeros", count).format(n=count), count


def _power_played(told: Told) -> tuple[str, int] | None:
    before = told.players(told.before)
    for pid, p in told.players(told.after).items():
        if p.get("power_card_played") is not None and before.get(pid, {}).get("power_card_played") is None:
            return pid, p["power_card_played"]
    return None


def _why(told: Told) -> str:
    """The lesson of what the step itself did."""
    new_scorings = (told.after.get("scorings") or [])[len(told.before.get("scorings") or []) :]
    general = [s for s in new_scorings if s.get("title", "").startswith("General scoring")]
    if general:
        moves = [m for o in told.after.get("outcomes") or [] for m in o.get("moves") or []]
        to_court = any(m["source"] == "castillo" and m["target"] == "court" for m in moves[-len(told.replay.players) :])
        return _said(GENERAL, TO_COURT if to_court else "")
    if new_scorings:
        return _(SPECIAL)
    who = told.name(told.actor)
    played = _power_played(told)
    if played:
        pid, card = played
        brings = _brings(told.after, card)[0]
        return _(POWER).format(who=told.name(pid), card=card, brings=brings) + " " + _(POWER_AFTER)
    kind, kind_of_step = told.kind, told.type
    if kind == "reveal_action_cards":
        return _(REVEAL)
    if kind == "replenish":
        mine = told.players(told.before).get(told.actor or "", {})
        card = mine.get("power_card_played")
        count = _brings(told.before, card)[1]
        if count is None:
            brings = _("as printed")
        elif count == 0:
            brings = _("none for card {card}").format(card=card)
        else:
            brings = _("{n} for card {card}").format(n=count, card=card)
        moved = told.players(told.after).get(told.actor or "", {}).get("court", 0) - mine.get("court", 0)
        extra = REPLENISH_NONE if count == 0 else REPLENISH_FEWER if moved < (count or 0) else ""
        return " ".join(part for part in (_(REPLENISH).format(brings=brings), _(extra) if extra else "") if part)
    if kind == "choose_action_card":
        return _chosen(told, who)
    changes = {
        "king": told.before.get("king") != told.after.get("king"),
        "grande": any(
            p.get("grande") != told.players(told.before).get(pid, {}).get("grande")
            for pid, p in told.players(told.after).items()
        ),
        "mobile": told.before.get("mobile_scoreboards") != told.after.get("mobile_scoreboards"),
    }
    if changes["king"]:
        return _(KING)
    if changes["grande"]:
        return _(GRANDE)
    if changes["mobile"]:
        return _(MOBILE)
    return _turn_lesson(told, who, kind, kind_of_step)


def _chosen(told: Told, who: str) -> str:
    before, after = told.before.get("action_cards") or {}, told.after.get("action_cards") or {}
    taken = next((before[s] for s in before if before.get(s) and s in after and after[s] is None), None)
    card = card_of(told.before, taken)
    if card is None or not card.placement:
        return _(CHOSEN_PLAIN).format(who=who, card=card_words(told.before, taken))
    places = ngettext("{n} Caballero", "{n} Caballeros", card.placement).format(n=card.placement)
    return _(CHOSEN).format(
        who=who, card=card_words(told.before, taken), places=places, text=names.card_text(card.text)
    )


def _turn_lesson(told: Told, who: str, kind: str, kind_of_step: str) -> str:
    """The parts of a turn: placing, the special action and what it asks for."""
    if kind == "secret_disc":
        purpose = (told.asked.get("options") or {}).get("purpose")
        disc = DISC_CASTILLO if purpose == "castillo_destination" else DISC_CARD
        return _(disc)
    if kind == "reveal_secret_discs":
        return _(REVEALED)
    if kind == "send_back":
        return _(SENT_BACK)
    if kind == "move_caballeros":
        moved = MOVED if kind_of_step == "caballeros_moved" else STARTED
        return _(moved)
    if kind == "veto":
        veto = VETO_USED if kind_of_step == "veto_used" else VETO_ASKED
        return _(veto)
    if kind == "take_back_power_card":
        return _(TAKEN_BACK)
    if kind == "choose_region":
        card = card_of(told.before, told.asked.get("card"))
        if card is not None:
            return _(REGION).format(who=who, card=card_words(told.before, card.id), text=names.card_text(card.text))
    if kind_of_step == "extra_caballeros_placed":
        return _(EXTRA)
    if kind_of_step == "caballeros_placed":
        placed = told.players(told.before).get(told.actor or "", {}).get("court", 0) - told.players(told.after).get(
            told.actor or "", {}
        ).get("court", 0)
        if placed <= 0:
            return _(PLACED_NONE)
        into = sum(
            sum((told.after.get("regions") or {}).get(r, {}).values())
            - sum((told.before.get("regions") or {}).get(r, {}).values())
            for r in told.after.get("regions") or {}
        )
        return _said(PLACED, CASTILLO if into < placed else "")
    if kind_of_step == "special_action_skipped":
        return _(SKIPPED)
    if told.after.get("outcomes") != told.before.get("outcomes"):
        return _(SENT_BACK)
    return _(STARTED)


def _round_words(told: Told) -> str:
    """What the end of a round (or of the game) means, when the step ended one."""
    if told.after.get("stage") == "over" and told.before.get("stage") != "over":
        return _(GAME_END)
    was, now = told.before.get("round", 0), told.after.get("round", 0)
    if not now or now == was:
        return ""
    skipped = list(range(was + 1, now))
    start = told.name(told.after.get("start_player"))
    if skipped:
        return _(ROUND_END_SKIP).format(start=start, now=now, skipped=listing([str(r) for r in skipped]))
    return _(ROUND_END).format(start=start, now=now)


# The key to the pieces on the map (companion/ui/widgets/piece_key.py draws each as the map does):
# kind -> its name, and what it is, for someone who has never played.
# (Marked for the catalogue: pieces() gives them in the table's language.)
PIECES = (
    ("caballeros", N_("Caballeros"), N_("A player's Caballeros in a region (their colour and shape), with how many.")),
    ("grande", N_("Grande"), N_("A player's Grande marks their home region; it never counts as a Caballero.")),
    (
        "king",
        N_("The King"),
        N_("His region is closed to every move; new Caballeros go into the regions next to it."),
    ),
    ("castillo", N_("The Castillo"), N_("The tower: Caballeros thrown in stay hidden until it is scored.")),
    (
        "court",
        N_("The court"),
        N_("Caballeros waiting beside the board until their player places them (In the courts)."),
    ),
)


def pieces() -> list[tuple[str, str, str]]:
    """The key to the pieces, in the table's language."""
    return [(kind, _(name), _(about)) for kind, name, about in PIECES]


def lesson(replay: Replay, number: int) -> str:
    """In the demo: why the step happened, for someone who has never played ('' otherwise)."""
    return lesson_of(replay, number) if getattr(replay, "demo", False) else ""
