"""King and Intrigue's markers on the board entry (scoring only), tap by tap. Plain data, no Kivy.

The markers that change a score are each a tool tapped on a region (`KI_TOOLS`: a tap places,
a tap on the same region takes it off); the two mobile scoreboards' reversed side, the Mistress's
holder and the bridge's owner are choices (`ki_choices`, `choose`). Only the markers of the
modules in play are offered (engine/ki_markers.py says whose each is); the engine checks the
whole event again (engine.snapshot.check_snapshot). `KIMarkerTools` is the part of
companion.entry.board.BoardEntry that enters them; `ki_fields` and `ki_markers` turn the public
view's markers into the snapshot's fields and back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.entry.position_words import capitalised
from companion.words import N_, _
from engine.board.model import CASTILLO, Board
from engine.ki_markers import MARKERS
from engine.queries import LIMIT_MARKERS  # the public view's keys of the limit tables

# What each King and Intrigue marker tool is called in a sentence, and the snapshot field it fills
KI_WORDS = {
    "marker:double": N_("a 2x marker"),
    "marker:alliance": N_("an Alliance marker"),
    "castillo_at": N_("the moved Castillo"),
    "quarantine": N_("the quarantine marker"),
    "marker:bridge": N_("the bridge"),
    "kings_guard": N_("the King's Guard"),
    "marker:limit": N_("a limit table"),
}
KI_FIELDS = {
    "marker:double": "double_scoring",
    "marker:alliance": "alliance",
    "castillo_at": "castillo_at",
    "quarantine": "quarantine",
    "marker:bridge": "bridge_regions",
    "kings_guard": "kings_guard",
    "marker:limit": "limit_tables",
}
# The marker tools: (tool, button words, module or None for the base game, how many); the module
# is the marker's (engine/ki_markers.py)
KI_TOOLS = tuple(
    (tool, words, MARKERS[KI_FIELDS[tool]].module, most)
    for tool, words, most in (
        ("marker:double", N_("2x marker"), 2),
        ("marker:alliance", N_("Alliance"), 2),
        ("castillo_at", N_("Castillo moved"), 1),
        ("quarantine", N_("Quarantine"), 1),
        ("marker:bridge", N_("Bridge"), 2),
        ("kings_guard", N_("King's Guard"), 1),
        ("marker:limit", N_("Limit table"), 3),
    )
)
PLURALS = {
    "marker:double": N_("2x markers"),
    "marker:alliance": N_("Alliance markers"),
    "marker:limit": N_("limit tables"),
}
SCOREBOARDS = ("8-4-0", "4-0-0")


def ki_fields(markers: dict) -> dict:
    """The public view's King and Intrigue markers (engine.views keys: double_1, alliance_2,
    reversed_8-4-0 ...) as the snapshot's fields (double_scoring, alliance, reversed ...)."""

    def pair(prefix):
        return [markers[k] for k in (f"{prefix}_1", f"{prefix}_2") if markers.get(k)]

    return {
        "double_scoring": pair("double"),
        "alliance": pair("alliance"),
        "castillo_at": markers.get("castillo_at"),
        "reversed": [sid for sid in SCOREBOARDS if markers.get(f"reversed_{sid}")],
        "quarantine": markers.get("quarantine"),
        "kings_guard": markers.get("kings_guard"),
        "mistress": markers.get("mistress"),
        "bridge": markers.get("bridge_caballero"),
        "bridge_regions": pair("bridge"),
        "limit_tables": [markers[k] for k in LIMIT_MARKERS if markers.get(k)],
    }


def ki_markers(fields: dict) -> dict:
    """The snapshot's fields as the public view's markers (what the map draws)."""
    out: dict = {}
    for prefix, key in (("double", "double_scoring"), ("alliance", "alliance"), ("bridge", "bridge_regions")):
        out.update({f"{prefix}_{i + 1}": rid for i, rid in enumerate(fields.get(key) or [])})
    out.update({f"reversed_{sid}": True for sid in fields.get("reversed") or []})
    out.update(dict(zip(LIMIT_MARKERS, fields.get("limit_tables") or [])))
    for key in ("castillo_at", "quarantine", "kings_guard", "mistress"):
        if fields.get(key):
            out[key] = fields[key]
    if fields.get("bridge"):
        out["bridge_caballero"] = fields["bridge"]
    return out


class KIMarkerTools:
    """The board entry's King and Intrigue markers: the tools a game's modules offer, a tap's
    refusal or its marker placed or taken off, and the choices that are not a tap on the map.
    Mixed into companion.entry.board.BoardEntry, which holds the state named below."""

    board: Board | None
    tool: str
    names: dict[str, str]
    players: list[str]
    dummy: str | None
    message: str
    modules: tuple[str, ...]
    ki: dict  # the markers as the snapshot says them (ki_fields)
    enters_markers: bool

    if TYPE_CHECKING:

        @property
        def king_intrigue(self) -> bool: ...

        def _place(self, aid: str) -> str: ...

        def who(self, pid: str) -> str: ...

    def ki_tools(self) -> list[tuple[str, str]]:
        """(tool, button words) of the markers this game's modules have; none for other rules."""
        if not (self.king_intrigue and self.enters_markers):
            return []
        return [(tool, _(words)) for tool, words, module, _n in KI_TOOLS if module is None or module in self.modules]

    def _limit(self, tool: str) -> int:
        return next(n for t, _w, _m, n in KI_TOOLS if t == tool)

    def _marked(self, tool: str) -> list[str]:
        value = self.ki[KI_FIELDS[tool]]
        return list(value) if isinstance(value, list) else [value] if value else []

    def _marker_refusal(self, area: str) -> str:
        words = _(KI_WORDS[self.tool])
        if self.tool not in dict(self.ki_tools()):
            return capitalised(_("{marker} is not in this game (its module is not played)").format(marker=words))
        if area == CASTILLO or self.board is None or area not in self.board.region_ids:
            return capitalised(
                _("{marker} lies on a region, not on {place}").format(marker=words, place=self._place(area))
            )
        marked = self._marked(self.tool)
        if area in marked:
            return ""  # taken off
        # A marker on the King's region passes: placed before the King came ("If one of the
        # regions is the King's region ... bonus points are awarded accordingly").
        if (
            self.tool == "marker:bridge"
            and len(marked) == 1
            and self.board.area_index[area] not in self.board.neighbours[self.board.area_index[marked[0]]]
        ):
            return _("The bridge joins two adjacent regions: {place} does not border {other}").format(
                place=self._place(area), other=self._place(marked[0])
            )
        limit = self._limit(self.tool)
        if limit > 1 and len(marked) >= limit:
            if self.tool == "marker:bridge":
                return _("The bridge lies between {places}: tap one end to take it off first").format(
                    places=_(" and ").join(self._place(r) for r in marked)
                )
            places = _("{places} and {last}").format(
                places=", ".join(self._place(r) for r in marked[:-1]), last=self._place(marked[-1])
            )
            if limit == 2:
                return _("Both {markers} lie already (on {places}): tap one to take it off first").format(
                    markers=_(PLURALS[self.tool]), places=places
                )
            return _("All {n} {markers} lie already (on {places}): tap one to take it off first").format(
                n=limit, markers=_(PLURALS[self.tool]), places=places
            )
        return ""

    def _toggle_marker(self, area: str) -> None:
        key = KI_FIELDS[self.tool]
        if self._limit(self.tool) == 1:
            self.ki[key] = None if self.ki[key] == area else area  # one marker: a tap elsewhere moves it
            return
        marked = self._marked(self.tool)
        self.ki[key] = [r for r in marked if r != area] if area in marked else marked + [area]
        if key == "bridge_regions" and len(self.ki[key]) < 2:
            self.ki["bridge"] = None  # no bridge without both ends: its owner is chosen again

    def ki_choices(self) -> list[tuple[str, str, bool]]:
        """(key, button words, on) of the choices that are not a tap on the map: each mobile
        scoreboard's side (Revolt), the Mistress's holder, the bridge's owner."""
        if not (self.king_intrigue and self.enters_markers):
            return []
        out = []
        if "special-cards" in self.modules:
            for sid in SCOREBOARDS:
                on = sid in self.ki["reversed"]
                words = (
                    _("{values} scoreboard: reversed {reversed}").format(values=sid, reversed=sid[::-1])
                    if on
                    else _("{values} scoreboard: as printed").format(values=sid)
                )
                out.append((f"reversed:{sid}", words, on))
            holder = self.ki["mistress"]
            out.append(
                (
                    "mistress",
                    _("Mistress: {who}").format(who=self.who(holder) if holder else _("nobody")),
                    bool(holder),
                )
            )
        if "players-edition" in self.modules and len(self.ki["bridge_regions"]) == 2:
            owner = self.ki["bridge"]
            out.append(
                (
                    "bridge",
                    _("Bridge: {who}'s").format(who=self.who(owner)) if owner else _("Bridge: whose?"),
                    bool(owner),
                )
            )
        return out

    def choose(self, key: str) -> None:
        """A choice of `ki_choices`: turn a scoreboard over, or pass the Mistress (the bridge) on to
        the next player (after the last: nobody). Never raises."""
        self.message = ""
        known = {k for k, _w, _on in self.ki_choices()}
        if key not in known:
            self.message = _("{choice} is not a choice of this game's board").format(choice=repr(key))
            return
        if key.startswith("reversed:"):
            sid = key.split(":", 1)[1]
            turned = self.ki["reversed"]
            self.ki["reversed"] = [s for s in turned if s != sid] if sid in turned else turned + [sid]
            return
        seats = [p for p in self.players if p != self.dummy]
        now = self.ki[key]
        self.ki[key] = (
            seats[0] if now is None else (seats[seats.index(now) + 1] if seats.index(now) + 1 < len(seats) else None)
        )

    def _marker_tool_words(self) -> str:
        limit = self._limit(self.tool)
        marker = _(KI_WORDS[self.tool])
        if self.tool == "marker:bridge":
            return _("tap a region to place or take off {marker} (its two regions, one after the other)").format(
                marker=marker
            )
        if limit > 1:
            return _("tap a region to place or take off {marker} (up to {n})").format(marker=marker, n=limit)
        return _("tap a region to place or take off {marker}").format(marker=marker)
