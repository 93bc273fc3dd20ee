"""What the table must do with its hands after a reveal or an effect on everyone, in words.

The engine records each such outcome (engine.state.Outcome: the discs shown and
the Caballeros that moved); this turns one into plain sentences for the tablet,
one per player, so nobody has to work out from the map which cubes go where.
Pure Python, no Kivy.

2023: the dummy's Region cards ("Put 2 green Caballeros in Aragón and 2 in Granada
(the dummy's)"), the card the dummy takes (said, nothing to move), Entourage (the
King goes with them), a general scoring with the King by the Castillo (everything is
thrown back in) or a Grande in it (it leaves with its owner's disc).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.table.outcome_titles import TitleWords
from companion.words import _, names, ngettext
from companion.words.colours import COLOUR_WORDS, DUMMY_PREFIX, colour_adjective, colour_word, player_name
from engine.board.build import classic_board
from engine.board.model import CASTILLO, Board


@dataclass(frozen=True)
class Instructions:
    round: int
    title: str
    discs: str  # "Discs: Red - Valencia, Blue - Galicia" or ""
    lines: list[str]  # one sentence per move; "Nothing to move." when none
    hands: bool = True  # something to move by hand (a dialog); False: a notice is enough


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else ""


class OutcomeWords:
    def __init__(self, names: dict[str, str], board: Board | None = None, dummy: str | None = None):
        self.names = names
        self.board = board or classic_board()
        # The 2-player dummy's colour; found by its name ("the dummy (White)") when not given.
        self.dummy = dummy or next((p for p, n in names.items() if n.startswith("the dummy (")), None)
        self.titles = TitleWords(self.named, self.area_named)

    def place(self, where: str) -> str:
        if where == "court":
            return _("their court")
        if where == "provinces":
            return _("the provinces")
        if where == CASTILLO:
            return _("the Castillo")
        if where == "espionage":  # King and Intrigue's spy: a Caballero on the Espionage card
            return _("the Espionage card")
        if where not in self.board.area_index:  # a place on a card the board does not name: said, not a crash
            return where.replace("_", " ")
        return names.area(self.board, self.board.area_index[where])

    def name(self, pid: str) -> str:
        return player_name(self.names, pid) if self.names.get(pid) else pid

    def named(self, name: str) -> str:
        """A player as the engine's title names them (their name, or their colour's English
        word) as the table shows them; any other words as they are."""
        pid = next((p for p, n in self.names.items() if n == name), None)
        if pid is not None:
            return self.name(pid)
        colour = next((c for c, word in COLOUR_WORDS.items() if word == name), None)
        if colour is not None:
            return colour_word(colour)
        inner = name[len(DUMMY_PREFIX) : -1] if name.startswith(DUMMY_PREFIX) and name.endswith(")") else None
        colour = next((c for c, word in COLOUR_WORDS.items() if word == inner), None)
        return player_name({colour: name}, colour) if colour is not None else name

    def area_named(self, name: str) -> str:
        """An area by the English name the engine's title gives it, as the board's edition prints it."""
        areas = range(self.board.castillo + 1 + len(self.board.space_ids))
        index = next((a for a in areas if self.board.area_name(a) == name), None)
        return names.place(name) if index is None else names.area(self.board, index)

    def move(self, m: dict) -> str:
        who, n, src, dst = self.name(m["player"]), m["count"], m["source"], m["target"]
        if m["player"] == self.dummy:
            colour = colour_adjective(m["player"])
            if src == "provinces":
                return ngettext(
                    "Put {n} {colour} Caballero in {region} (the dummy's).",
                    "Put {n} {colour} Caballeros in {region} (the dummy's).",
                    n,
                ).format(n=n, colour=colour, region=self.place(dst))
            if dst == "provinces":
                return ngettext(
                    "Take {n} {colour} Caballero from {region} back beside the board (the dummy's supply).",
                    "Take {n} {colour} Caballeros from {region} back beside the board (the dummy's supply).",
                    n,
                ).format(n=n, colour=colour, region=self.place(src))
        if src == "court" and dst == "provinces":
            return ngettext(
                "{who}: put {n} Caballero from their court back in the provinces.",
                "{who}: put {n} Caballeros from their court back in the provinces.",
                n,
            ).format(who=who, n=n)
        if dst == "provinces":
            return ngettext(
                "{who}: take {n} Caballero from {region} back to the provinces.",
                "{who}: take {n} Caballeros from {region} back to the provinces.",
                n,
            ).format(who=who, n=n, region=self.place(src))
        if dst == "court":
            return ngettext(
                "{who}: take {n} Caballero from {region} into their court.",
                "{who}: take {n} Caballeros from {region} into their court.",
                n,
            ).format(who=who, n=n, region=self.place(src))
        return ngettext(
            "{who}: move {n} Caballero from {source} to {target}.",
            "{who}: move {n} Caballeros from {source} to {target}.",
            n,
        ).format(who=who, n=n, source=self.place(src), target=self.place(dst))

    def moves(self, moves: list[dict]) -> list[str]:
        """One sentence per move; the dummy's Region cards (several placements from its
        supply) read as one: "Put 2 green Caballeros in Aragón and 2 in Granada (the dummy's)"."""
        placed = [m for m in moves if m["player"] == self.dummy and m["source"] == "provinces"]
        lines = [self.move(m) for m in moves if m not in placed]
        if placed:
            n = placed[0]["count"]
            line = ngettext(
                "Put {n} {colour} Caballero in {region}", "Put {n} {colour} Caballeros in {region}", n
            ).format(n=n, colour=colour_adjective(self.dummy or ""), region=self.place(placed[0]["target"]))
            for m in placed[1:]:
                # Translators: more of the dummy's Caballeros: "Put 2 white Caballeros in Toledo and 2 in Galicia"
                line = _("{placed} and {n} in {region}").format(
                    placed=line, n=m["count"], region=self.place(m["target"])
                )
            lines.insert(0, _("{placed} (the dummy's).").format(placed=line))
        return lines

    def discs(self, discs: dict[str, str]) -> str:
        if not discs:
            return ""
        shown = ", ".join(
            _("{who} - {region}").format(who=self.name(p), region=self.place(r)) for p, r in discs.items()
        )
        return _("Discs: {discs}").format(discs=shown)

    def instructions(self, outcome: dict) -> Instructions:
        title = outcome["title"]
        lines = self.moves(outcome["moves"])
        lines += self._pieces(title, outcome["moves"])
        hands = bool(lines)
        if not lines:
            lines = [self._said(title)]
        shown = self.titles.title(title)
        heading = (
            shown
            if title.startswith("Round ")
            else _("Round {round}: {title}").format(round=outcome["round"], title=shown)
        )
        return Instructions(outcome["round"], heading, self.discs(outcome["discs"]), lines, hands)

    def _pieces(self, title: str, moves: list[dict]) -> list[str]:
        """Pieces other than Caballeros the outcome moves, said in its title by the engine."""
        out = []
        if title.startswith("General scoring"):
            told = title.split(": ", 1)[-1]
            if "thrown back in" in told:
                out.append(
                    _(
                        "Put every Caballero back under the Castillo: the King stands beside it, nothing "
                        "leaves it (lower the Castillo over them; thrown through the tower they would count twice)."
                    )
                )
            out += [_sentence(self.titles.part(part)) for part in told.split("; ") if "Grande goes to" in part]
        elif moves and self._entourage(title):
            out.append(_("The King goes to {region} with them.").format(region=self.place(moves[0]["target"])))
        return out

    def _entourage(self, title: str) -> bool:
        name = title.split(", played by", 1)[0]
        return any(c.effect == "entourage" and c.name == name for c in self.board.cards.values())

    def _said(self, title: str) -> str:
        """An outcome with nothing to move: its title says what happened (the dummy's card)."""
        told = title.split(": ", 1)[-1] if title.startswith("Round ") else title
        if "takes" in told and "dummy" in told:
            return _sentence(self.titles.told(told))
        return _("Nothing to move.")
