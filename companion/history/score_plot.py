"""The scores over a game as one picture's data, drawn by the replay's plot, the end screen's plot
and the shared picture alike: x from 0 to 1 by moments, where an ordinary step is one moment and a
scoring is a band of its own (a general scoring GENERAL_SHARE of the axis, a special one
SPECIAL_SHARE), so the last general scoring, often the biggest turning point, is seen, not a sliver
at the right edge. Each player's line is flat between scorings and climbs across a scoring's band.
Pure: a replay in, numbers out."""

from __future__ import annotations

from dataclasses import dataclass

from companion.history.records import Replay

GENERAL_SHARE = 0.08  # of the x axis, for each general scoring
SPECIAL_SHARE = 0.025  # for each special scoring
SCORINGS_AT_MOST = 0.6  # the scorings' bands together (a game of many special scorings): the rest for the play


@dataclass(frozen=True)
class ScoringBand:
    step: int
    round: int
    start: float
    end: float
    general: bool


@dataclass(frozen=True)
class RoundSpan:
    round: int
    start: float
    end: float


@dataclass(frozen=True)
class ScorePlotData:
    x: list[float]  # where the game stands once step n is done (the cursor), 0 at the setup, 1 at the end
    lines: dict[str, list[tuple[float, int]]]  # per player: (x, score) corners of the line, left to right
    scorings: list[ScoringBand]
    rounds: list[RoundSpan]
    top: int  # the highest score (at least 1): the y axis' top

    def x_of(self, step: int) -> float:
        return self.x[max(0, min(step, len(self.x) - 1))]


def _scored(replay: Replay, number: int) -> tuple[bool, bool]:
    """(a scoring happened at this step, one of them general)."""
    before = replay.steps[number - 1].view.get("scorings") or []
    new = (replay.steps[number].view.get("scorings") or [])[len(before) :]
    return bool(new), any(s["title"].startswith("General scoring") for s in new)


def score_plot(replay: Replay) -> ScorePlotData:
    """The plot's data for a replay (one step: a flat line from 0 at x 0 to 1)."""
    kinds = [_scored(replay, n) for n in range(1, len(replay))]
    shares = [GENERAL_SHARE if general else SPECIAL_SHARE if scored else 0.0 for scored, general in kinds]
    banded = sum(shares)
    if banded > SCORINGS_AT_MOST:
        shares = [s * SCORINGS_AT_MOST / banded for s in shares]
        banded = SCORINGS_AT_MOST
    plain = sum(1 for scored, _ in kinds if not scored)
    each = (1.0 - banded) / plain if plain else 0.0
    widths = [share or (0.0 if scored else each) for share, (scored, _) in zip(shares, kinds)]
    total = sum(widths) or 1.0
    x = [0.0]
    for width in widths:
        x.append(x[-1] + width / total)
    x[-1] = 1.0 if len(x) > 1 else 0.0
    scorings = [
        ScoringBand(n, replay.steps[n].round, x[n - 1], x[n], general)
        for n, (scored, general) in enumerate(kinds, start=1)
        if scored
    ]
    return ScorePlotData(x, _lines(replay, x, kinds), scorings, _rounds(replay, x), _top(replay))


def _lines(replay: Replay, x: list[float], kinds: list[tuple[bool, bool]]) -> dict[str, list[tuple[float, int]]]:
    lines = {p: [(0.0, replay.steps[0].scores.get(p, 0))] for p in replay.players}
    for step, (scored, _) in zip(replay.steps[1:], kinds):
        for player, corners in lines.items():
            before, after = corners[-1][1], step.scores.get(player, 0)
            if after == before:
                continue
            start = x[step.number - 1] if scored else x[step.number]  # a scoring climbs across its band
            corners += [(start, before), (x[step.number], after)]
    for corners in lines.values():
        corners.append((1.0, corners[-1][1]))
    return lines


def _rounds(replay: Replay, x: list[float]) -> list[RoundSpan]:
    spans: list[RoundSpan] = []
    for step in replay.steps:
        start = x[step.number - 1] if step.number else 0.0
        if spans and spans[-1].round == step.round:
            spans[-1] = RoundSpan(step.round, spans[-1].start, x[step.number])
        else:
            spans.append(RoundSpan(step.round, start, x[step.number]))
    return spans


def _top(replay: Replay) -> int:
    return max([1] + [score for step in replay.steps for score in step.scores.values()])
