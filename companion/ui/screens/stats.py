"""Each player's record per rule system: games, wins (a shared victory counts for each),
mean and best score, and where the points came from (companion.history.records.statistics)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.history.records import SOURCE_NAMES, SOURCES, cached_records, rules_label, statistics
from companion.safe_text import for_markup

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def stats_text(stats) -> str:
    if not stats:
        return "No finished game yet: each player's record appears after the first."
    out, rules = [], None
    for s in stats:
        if s.rules != rules:
            rules = s.rules
            out.append(f"\n[b][size=20sp]{for_markup(rules_label(rules))}[/size][/b]")
        shared = f" ({s.shared_wins} shared)" if s.shared_wins else ""
        sources = ", ".join(f"{SOURCE_NAMES[k]} {s.by_source.get(k, 0)}" for k in SOURCES if s.by_source.get(k, 0))
        out.append(
            f"[b]{for_markup(s.name)}[/b]: {s.games} game{'s' * (s.games != 1)}, {s.wins} won{shared}, "
            f"mean {s.mean:.1f}, best {s.best}\n    points from: {sources}"
        )
    return "\n".join(out).strip()


class StatsScreen(Screen):
    model = ObjectProperty(None)
    text = StringProperty("")

    def on_pre_enter(self, *args) -> None:
        self.text = stats_text(statistics(cached_records()))
