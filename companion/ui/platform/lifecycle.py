"""Pause and resume (no Kivy): what the app does when Android sends it to the background
(the screen sleeps, another app comes up) and back.

Every input is on disk before the table acts on it (companion/storage/game_log.py), so pausing loses
nothing; `flush_game` makes sure once more. Android may stop the app's sockets and threads
while it is paused; `restore_links` finds a tower link or a phone server that is no longer
running and starts it again with the same table: the tower replays what it counted
meanwhile (the link de-duplicates), the phone server listens on the same port and every
joined phone keeps its seat and credential, and the club publisher connects again and
republishes the table's state (retained: the room board shows it live again).
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger("companion.ui.platform.lifecycle")


def flush_game(table) -> bool:
    """fsync the open game's log and checkpoint again; False when there is no log to flush."""
    game_log = getattr(table, "_log", None) if table is not None else None
    if game_log is None:
        return False
    try:
        os.fsync(game_log._file.fileno())
        os.fsync(game_log._tip)
        return True
    except (OSError, ValueError, AttributeError) as exc:  # a closed file: nothing left to write
        log.warning("flushing the game log on pause: %s", exc)
        return False


def bridge_running(bridge) -> bool:
    """The tower bridge's own thread (the serial reader, or the MQTT ticker) is alive."""
    worker = getattr(bridge, "_worker", None)
    if worker is not None:
        return worker.is_alive() and not bridge._stop.is_set()
    ticker = getattr(bridge, "_ticker", None)
    return ticker is not None and ticker.is_alive() and not bridge._stop.is_set()


def phones_running(phones) -> bool:
    return phones.running()


def club_running(club) -> bool:
    """The club publisher's thread and paho's network loop are both alive."""
    thread = getattr(club, "_thread", None)
    loop = getattr(getattr(club, "client", None), "_thread", None)
    return thread is not None and thread.is_alive() and not club._stop.is_set() and loop is not None and loop.is_alive()


def restore_links(model) -> list[str]:
    """Starts again what stopped while the app was paused: "tower", "phones", "club" (in that order)."""
    restored = []
    link = model.tower_link
    if link is not None and link.bridge is not None and not bridge_running(link.bridge):
        _restart_tower(model)
        restored.append("tower")
    phones = model.phones
    if phones is not None and not phones_running(phones):
        if _restart_phones(phones):
            restored.append("phones")
    club = getattr(model, "club_link", None)
    if club is not None and model.table is not None and not club_running(club):
        _restart_club(model)
        restored.append("club")
    return restored


def _restart_club(model) -> None:
    try:
        model.club_link.stop(say_offline=False)  # its link is gone: the broker's Last Will said offline
    except Exception:
        log.debug("stopping the old club publisher", exc_info=True)
    model.club_link = None
    model._start_club(model.table)


def _restart_tower(model) -> None:
    from companion.tower.connection import TowerConnection

    old, table = model.tower_link, model.table
    try:
        old.stop()
    except Exception:  # it had already stopped
        log.debug("stopping the old tower link", exc_info=True)
    model.tower_link = None
    if table is not None:
        model.tower_link = TowerConnection(
            table, table.setup.tower, on_status=model._tower_changed, after=model._tower_after
        ).start()


def _restart_phones(phones) -> bool | None:
    try:
        phones.stop()
        phones.start()  # the same port and seats: joined phones reconnect by themselves
        return True
    except Exception as exc:  # the port was taken meanwhile: said on the phones panel by the model
        log.warning("the phone server could not start again: %s", exc)
        return False
