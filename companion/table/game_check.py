"""A saved game as the home screen lists it: read and replayed without opening it for writing,
with what it holds (players, records, where the game stands) or what is wrong with it and what
can be kept. Checking never raises: a bug here must not keep the other games from the list.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from companion.storage.game_log import Damage, scan_log
from companion.storage.games_folder import log_paths, modified, started_from_name
from companion.table.authority import load_saved
from companion.table.log import why
from companion.table.private_picks import where_in_game
from companion.words import _

logger = logging.getLogger("companion.table.authority")  # the table's log, as before the move


@dataclass
class GameCheck:
    """A saved game as the home screen lists it. Built by check_game, which never raises."""

    path: Path
    modified: float
    names: list[str]
    records: int  # intact records (all of them, when not damaged)
    finished: bool
    where: str  # where the intact records leave the game
    damage: Damage | None = None
    warnings: list[str] = field(default_factory=list)
    started: float | None = None  # when the game began (Unix time), None when unknown

    @property
    def damaged(self) -> bool:
        return self.damage is not None

    def message(self) -> str:
        """What is wrong and what can be kept; empty when nothing is."""
        if not self.damage:
            return ""
        if not self.damage.openable:
            return _("{damage}. Nothing of this game can be opened; keep it aside.").format(damage=self.damage.what)
        if self.damage.kept == 0:
            return _("{damage}. {intact}; start the game again from it ({where})?").format(
                damage=self.damage.what, intact=self.damage.intact(), where=self.where
            )
        return _("{damage}. {intact}; open the game up to record {kept} ({where})?").format(
            damage=self.damage.what, intact=self.damage.intact(), kept=self.damage.kept, where=self.where
        )

    def choices(self) -> list[tuple[str, str]]:
        """(label, action): resume | open_intact | keep_aside."""
        if not self.damage:
            return [(_("Open") if self.finished else _("Resume"), "resume")]
        label = (
            _("Open up to record {kept}").format(kept=self.damage.kept)
            if self.damage.kept
            else _("Start again from its setup")
        )
        opening = [(label, "open_intact")] if self.damage.openable else []
        return opening + [(_("Keep aside"), "keep_aside")]


def check_game(path: Path) -> GameCheck:
    """Read and replay a log without opening it for writing: what it holds, or what is wrong."""
    try:
        return _check_game(path)
    except Exception as exc:  # a bug here must not keep the home screen (and every other game) from opening
        logger.exception("checking %s failed", path)
        return GameCheck(
            path,
            modified(path),
            [],
            0,
            False,
            "",
            Damage(f"it could not be read ({why(exc)})", 0, 0, 0, openable=False),
        )


def _check_game(path: Path) -> GameCheck:
    loaded = scan_log(path)
    table, damage = load_saved(path, loaded)
    if table is None:
        return GameCheck(
            path, modified(path), [], 0, False, "", damage, loaded.warnings, started=started_from_name(path)
        )
    names = [table.names.get(p) or p.title() for p in table.players]
    finished = bool(table.effective) and table.over
    return GameCheck(
        path,
        modified(path),
        names,
        len(table.records),
        finished,
        where_in_game(table),
        damage,
        loaded.warnings,
        started=table.started or started_from_name(path),
    )


def check_games(folder: Path | None = None) -> list[GameCheck]:
    """Every log in the games folder, newest first, damaged ones included."""
    return [check_game(path) for path in log_paths(folder)]
