"""What the phone server remembers of one game's questions between two reads of its table.

One per table served: the next game starts with a fresh one, so nothing of the last game's
questions (listed regions, Modifier faces, refused deals) can leak into the next."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.phones.views import Faces


@dataclass
class GameMemory:
    question: str = ""  # the question id `allowed` was listed for
    allowed: dict[str, list[str]] = field(default_factory=dict)  # seat -> regions the engine listed
    faces: Faces | None = None  # this game's Modifier cards by face (Power Shift), once read
    faces_read: bool = False
    deal_refused: dict[tuple[str, str], int] = field(default_factory=dict)  # (question, seat) -> refusals
