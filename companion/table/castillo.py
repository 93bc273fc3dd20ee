"""The Castillo as the tower sees it: drops, the hidden tallies, and the tower's own totals.

Each drop is classified when it arrives (expected, flagged, uncertain); a person settles the
doubtful ones (assign, keep, dismiss). The tallies are secret: they reach the table only at
the Castillo's reveal. `unplaced` is what the tower saw go in that no entered turn accounts
for yet (prefilled into the next placement).

The tower's own totals (a snapshot per colour since its last emptying) are compared with the
drops received since the same emptying; a disagreement is written to the log ("tower_totals",
both counts) and stays a public fault, with no figure in it, until the Castillo is counted by
hand at the next general scoring.

Everything here is rebuilt from the game's records (`apply`) and entered events (`entered`);
companion.table.authority writes the records and holds the lock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from companion.input_errors import InputError
from companion.words import _
from engine import events as ev
from engine.board.model import CASTILLO
from firmware_bridge.adapter import TowerDrop

log = logging.getLogger("companion.table.authority")  # the table's log: a drop handed over again is its warning

DROP_STATUSES = ("expected", "flagged", "uncertain")


@dataclass
class DropEntry:
    """A tower drop as the table sees it; `status` was decided when it arrived."""

    key: tuple[str, str, int]
    colour: str | None
    best: str | None
    est: int
    status: str  # expected | flagged | uncertain
    player: str | None = None  # whose tally it counts in (None: waiting for a person)
    count: int = 0
    settled: bool = False  # a person assigned, kept or dismissed it

    @property
    def needs_person(self) -> bool:
        return self.status in ("uncertain", "flagged") and not self.settled

    def public(self) -> dict:
        return {
            "id": drop_id(self.key),
            "status": self.status,
            "best": self.best,
            "colour": self.colour,
            "est": self.est,
        }


def drop_id(key) -> str:
    return f"{key[1]}:{key[2]}"


class Castillo:
    """What the tower counted, for one game. `reset` forgets all but the drops handed over again."""

    def __init__(self, players: tuple[str, ...]):
        self.players = players
        self.drops_again = 0  # drops handed over again that the log already held (not applied twice)
        self.reset()

    def reset(self) -> None:
        self.drops: dict[tuple, DropEntry] = {}
        self.drops_total = 0
        self.tally = {pid: 0 for pid in self.players}  # hidden: the tower's count
        self.unplaced = {pid: 0 for pid in self.players}  # counted, not yet entered
        self.empty_token: str | None = None  # the last emptying; sent again after a restart
        # Since the last emptying, what the tower said of each drop it sent: (key, colour it was sure
        # of, or None for an uncertain or multiple drop). Its totals count the same way.
        self.received: list[tuple[tuple, str | None]] = []
        self.totals_fault: dict | None = None  # the open "tower_totals" record, if any
        self.totals_settled: dict | None = None  # the last one the hand count settled
        self.castillo_opened = False  # the Castillo was lifted since the last emptying
        self.totals_seen: dict = {}  # the last comparison (not kept in the log)

    # ---- drops ----------------------------------------------------------------------------

    def handed_again(self, drop: TowerDrop) -> bool:
        """Whether the log already holds this drop (then it is counted here, not applied)."""
        if drop.key not in self.drops:
            return False
        # The second line of defence: the link hands each drop over once per boot it knows, but a
        # restarted app's link starts knowing only the last drop, and late frames of an older boot
        # (a broker's redelivery, a retained hello) may bring earlier drops again. What was
        # applied is in the game log (self.drops is rebuilt from it): counted and logged, not applied.
        self.drops_again += 1
        log.warning(
            "tower drop %s %s was handed over again; the game log already holds it: not counted "
            "twice (%d caught so far)",
            drop.key[0],
            drop_id(drop.key),
            self.drops_again,
        )
        return True

    def drop_record(self, drop: TowerDrop, game, dummy: str | None) -> dict:
        """The record a new drop writes, its status decided by what is asked now (`game`: the mode)."""
        return {
            "t": "drop",
            "key": list(drop.key),
            "colour": drop.colour,
            "best": drop.best,
            "est": drop.est if drop.multi else 1,
            "status": self._classify(drop, game, dummy),
        }

    def _classify(self, drop: TowerDrop, game, dummy: str | None) -> str:
        if drop.colour is None or drop.multi:
            return "uncertain"
        if drop.colour not in self.players:
            if drop.colour == dummy and game.moves_dummy_in(game.asked()):
                return "expected"
            return "flagged"  # a colour nobody plays: a stray cube
        return "expected" if game.placing_now(drop.colour, game.asked()) else "flagged"

    def waiting(self, drop_id_: str) -> DropEntry:
        """The drop a person answers, or InputError naming why it cannot be answered."""
        for entry in self.drops.values():
            if drop_id(entry.key) == drop_id_:
                if entry.settled:
                    raise InputError(
                        _("drop {drop} was already answered (undo to change the answer)").format(drop=drop_id_)
                    )
                return entry
        raise InputError(_("no tower drop {drop} waits for an answer").format(drop=repr(drop_id_)))

    def waiting_public(self) -> list[dict]:
        return [d.public() for d in self.drops.values() if d.needs_person]

    def position(self) -> tuple[str, str, int] | None:
        keys = [d.key for d in self.drops.values()]
        return keys[-1] if keys else None

    # ---- the game's records and events --------------------------------------------------------

    def apply(self, record: dict) -> None:
        """A record other than an event ("drop", an answer, "emptied", "opened", "tower_totals")."""
        kind = record["t"]
        if kind == "drop":
            key = tuple(record["key"])
            entry = DropEntry(key, record["colour"], record["best"], record["est"], record["status"])
            if entry.status != "uncertain":
                entry.player, entry.count = entry.colour if entry.colour in self.tally else None, 1
            self.drops[key] = entry
            self.drops_total += 1
            self._count(entry, +1)
            self.received.append((key, entry.colour if entry.status != "uncertain" else None))
        elif kind in ("assign", "dismiss", "keep"):
            entry = self.drops[tuple(record["drop"])]
            self._count(entry, -1)
            if kind == "assign":
                entry.player, entry.count = record["player"], record["count"]
            elif kind == "dismiss":
                entry.player, entry.count = None, 0
            entry.settled = True
            self._count(entry, +1)
        elif kind == "emptied":
            self.tally = {pid: 0 for pid in self.players}
            self.unplaced = {pid: 0 for pid in self.players}
            self.empty_token = record["token"]
            for entry in self.drops.values():
                entry.settled = True  # what was in the tower has been counted by hand
            self.received = []
            self.castillo_opened = False
            self.settle_totals()
        elif kind == "opened":
            self.castillo_opened = True
        elif kind == "tower_totals":
            self.totals_fault = record

    def _count(self, entry: DropEntry, sign: int) -> None:
        if entry.player in self.tally and entry.count:
            self.tally[entry.player] += sign * entry.count
            if entry.status != "flagged":
                # A cube thrown outside a placement (kept) is in the Castillo, but belongs to no
                # turn: it must not be prefilled into that player's next placement.
                self.unplaced[entry.player] = max(0, self.unplaced[entry.player] + sign * entry.count)

    def entered(self, event) -> None:
        """An event applied: entered turns that put Caballeros in the Castillo use up the tower's
        count; the Castillo counted by hand settles a disagreement of the tower's totals."""
        self._count_entered(event)
        if getattr(event, "type", "") == "castillo_counted":
            self.settle_totals()

    def _count_entered(self, event) -> None:
        put: dict[str, int] = {}
        if isinstance(event, (ev.CaballerosPlaced, ev.ExtraCaballerosPlaced)):
            put[event.player] = event.placements.get(CASTILLO, 0)
        elif isinstance(event, ev.CaballerosMoved) and event.target == CASTILLO:
            put[event.owner] = event.count
        elif (isinstance(event, ev.TableCorrected) and event.castillo is not None) or isinstance(
            event, ev.CastilloCounted
        ):
            # The Castillo as the table counted it: that is what lies there now (the tower counts
            # on from it), and what the tower saw is in it, with no turn to come.
            counted = event.castillo if isinstance(event, ev.TableCorrected) else event.counts
            for pid in self.players:
                self.tally[pid] = (
                    counted.get(pid, 0) if isinstance(event, ev.TableCorrected) else counted.get(pid, self.tally[pid])
                )
            self.unplaced = {pid: 0 for pid in self.players}
            return
        for pid, k in put.items():
            if pid in self.unplaced:
                self.unplaced[pid] = max(0, self.unplaced[pid] - k)

    def settle_totals(self) -> None:
        """The Castillo was counted by hand (or emptied): that count decided; the fault is settled."""
        if self.totals_fault is not None:
            self.totals_settled, self.totals_fault = self.totals_fault, None

    # ---- the tallies ---------------------------------------------------------------------------

    def tallies(self, by_hand: list[str], recorded: dict[str, int] | None) -> dict[str, int]:
        """The tower's count per player; a colour it does not know (`by_hand`) counts what the
        entered turns put in (`recorded`, tracking mode)."""
        tallies = dict(self.tally)
        if by_hand and recorded is not None:
            tallies.update({p: recorded[p] for p in by_hand if p in tallies})
        return tallies

    # ---- the tower's own totals ----------------------------------------------------------------

    def compare_totals(self, tower: str, totals: Any, now: float) -> tuple[str, dict | None]:
        """The tower's totals snapshot (firmware_bridge Totals) against the drops received from that
        tower since the same emptying, up to the snapshot's sequence number (drops after it are not
        in it), and the record to write (None: nothing new).

        "agree"; "differ": a "tower_totals" record with both counts (once for the same numbers: a
        restart sends the same snapshot again), a public fault until the Castillo is counted by
        hand; "other_emptying": the tower counts since another emptying (it has not taken this
        game's yet, or the game began before it was emptied for it): not compared."""
        if self.empty_token is None or totals.token != self.empty_token:
            self.totals_seen = {"state": "other_emptying", "at": now, "ours": self.empty_token is not None}
            return "other_emptying", None
        mine = self._received_count(tower, totals.boot, totals.seq, totals.drops)
        theirs = {"counts": {c: n for c, n in sorted(totals.counts.items()) if n}, "drops": totals.drops}
        if mine == theirs:
            self.totals_seen = {"state": "agree", "at": now}
            return "agree", None
        self.totals_seen = {"state": "differ", "at": now}
        fault = self.totals_fault
        if fault is None or (fault["tower_count"], fault["table_count"]) != (theirs, mine):
            return "differ", {
                "t": "tower_totals",
                "tower": tower,
                "boot": totals.boot,
                "seq": totals.seq,
                "token": totals.token,
                "tower_count": theirs,
                "table_count": mine,
                "at": int(now),
            }
        return "differ", None

    def _received_count(self, tower: str, boot: str, seq: int, since_empty: int) -> dict:
        # The tower's `drops` are those since its emptying, numbered up to `seq` in this boot:
        # a drop numbered before them was thrown before the emptying reached the tower (a cube
        # held from before the game started, say), so it is not in the tower's count either.
        first = seq - since_empty
        counts: dict[str, int] = {}
        drops = 0
        for key, colour in self.received:
            if key[0] != tower or (key[1] == boot and not first < key[2] <= seq):
                continue  # another tower's, thrown after the snapshot, or before the emptying
            drops += 1
            if colour is not None:
                counts[colour] = counts.get(colour, 0) + 1
        return {"counts": dict(sorted(counts.items())), "drops": drops}

    def totals_check(self) -> dict:
        """What the tower panel may say (it is on the open table): whether the last snapshot agreed,
        whether a disagreement is open or was settled, and the two counts per colour only once
        the Castillo has been lifted (its counts are shown then anyway)."""
        fault, settled = self.totals_fault, self.totals_settled
        shown = fault if fault is not None and self.castillo_opened else None
        return {
            "seen": dict(self.totals_seen),
            "fault": fault is not None,
            "fault_at": fault.get("at") if fault else None,
            "settled_at": settled.get("at") if settled and fault is None else None,
            "counts": ({"tower": shown["tower_count"], "table": shown["table_count"]} if shown else None),
        }
