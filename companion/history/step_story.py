"""A replay's steps told to people: one sentence of what happened at each step (story), and in the
demo why it happened (lesson). Pure: reads the replay's public views, no UI."""

from __future__ import annotations

from companion.history.records import Replay


def story(replay: Replay, number: int) -> str:
    """What happened at step `number`, in one sentence."""
    return replay.steps[number].what


def lesson(replay: Replay, number: int) -> str:
    """In the demo: why the step happened, for someone who has never played ('' otherwise)."""
    return ""
