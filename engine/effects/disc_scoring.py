"""Special Scoring by Secret Disc (classic): "Each player chooses a region with his Secret Disk.
Each region that was chosen exactly once is scored." Every player sets one, the active
player too (the dummy never)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import require_scoreboards, score_regions
from ..secret_discs import disc_ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    sp.queue = P.choosers(state, P.clockwise_from(state, sp.player))


def ask(state: GameState, sp: Special) -> Ask:
    allowed = {state.players[q]: list(state.board.region_ids) for q in sp.queue}
    return disc_ask(state, sp.queue, sp.discs, allowed, "special_scoring")


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    p = P.player(state, e.player)
    r = P.region(state, e.region, P.N_("a secret disc"))
    if p not in sp.queue:
        raise P.RuleViolation("secret-disc", "{who} is not asked for a secret disc now", who=P.name(state, p))
    sp.discs[p] = r


def reveal(state: GameState, sp: Special) -> None:
    picks = list(sp.discs.values())
    once = [r for r in state.board.regions if picks.count(r) == 1]
    lines = score_regions(state, once)
    names = ", ".join(P.area_name(state, r) for r in once) or "none"
    P.record_scoring(state, P.special_title(state, sp, f"regions chosen exactly once: {names}"), lines)
    P.special_outcome(state, sp, sp.discs)
    finish_special(state)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, state.board.regions)


register(Effect("disc_scoring", begin, ask, steps={ev.SecretDiscSet: disc_set}, reveal=reveal, check_start=check_start))
