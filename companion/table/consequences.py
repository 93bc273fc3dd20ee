"""The records an input brings about, written with it: after a general scoring's reveal the
Castillo is emptied (and the tower told), after the last scoring the game is finished.

Both follow from the log alone, so a crash between an input and its consequences is completed
when the game is resumed (`complete_interrupted_input`): the game goes on exactly as an
uninterrupted run did. Functions of a companion.table.authority.Table, which holds the lock.
"""

from __future__ import annotations

from companion.words import _

# `table` below is a companion.table.authority.Table (not imported: the table imports this module).


def empty_token(table, ahead: int = 0) -> str:
    """Names an emptying by its place in the log (`ahead`: records written before it, not yet held)."""
    return f"g{table.nonce}-e{len(table.log.records) + ahead}"


def consequences(table, event) -> list[dict]:
    """The records `event`, just applied, brings about, to be written with it."""
    after: list[dict] = []
    if event.type == "secret_discs_revealed" and table.game.general_scoring_emptied():
        after.append({"t": "emptied", "token": empty_token(table, ahead=1)})
    if table.over and not table.log.last_is("finished"):
        after.append({"t": "finished"})
    return after


def complete_interrupted_input(table) -> None:
    """The second record an input writes of its own (the emptying after a general scoring's
    reveal; "finished"), when a crash cut it off: held in force and written now, or with the
    next input on a full disk (a warning says so)."""
    with table.lock:
        effective = table.log.effective
        events = [i for i, r in enumerate(effective) if r["t"] == "event"]
        missing = []
        if (
            events
            and effective[events[-1]]["e"].get("type") == "secret_discs_revealed"
            and table.game.general_scoring_emptied()
            and not any(r["t"] == "emptied" for r in effective[events[-1] + 1 :])
        ):
            missing.append({"t": "emptied", "token": empty_token(table)})
        if table.over and not table.log.last_is("finished"):
            missing.append({"t": "finished"})
        trouble = table.log.hold(missing) if missing else None
        if trouble:
            table.warnings.append(
                _("{trouble}: the end of the last input is kept in memory and saved with the next one").format(
                    trouble=trouble.split(":")[0]
                )
            )
