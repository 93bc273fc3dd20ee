"""The demo's teaching words."""

from __future__ import annotations


def lesson_of(replay, number: int) -> str:
    return ""
