"""What a person at the table would see wrong on a screen, checked on the live widget tree
(run inside the app by shape_scenarios.py): touch targets under 48 dp, interactive widgets
that overlap, widgets or words that stick out of the window, text cut (lines dropped,
shortened with "...", or a word broken in the middle), and marks on the map that cover
each other or are cut by its edge.

Each check returns a list of problems in words; the scenario collects them per screen."""

from __future__ import annotations

import re
from functools import lru_cache

from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput

SLACK = 1.0  # px: rounding in Kivy's layouts
MIN_TOUCH_DP = 48
MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def _rect(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    return x0, y0, x0 + w.width, y0 + w.height


def _clip(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _name(w) -> str:
    text = getattr(w, "text", "") or ""
    kind = w.__class__.__name__
    return f"{kind} {text[:50]!r}" if text else kind


def shown_widgets(root=None):
    """(widget, full window rect, visible window rect, inside a scroll view) for every widget a
    person can see on the topmost layer (an open dialog, else the current screen)."""
    root = root or Window.children[0]
    screen = (0, 0, Window.width, Window.height)

    def walk(w, clip, scrolled):
        if getattr(w, "opacity", 1) == 0 or w.width <= 0 or w.height <= 0:
            return
        full = _rect(w)
        seen = _clip(full, clip)
        if seen is None:
            return
        yield w, full, seen, scrolled
        if isinstance(w, StencilView):
            clip, scrolled = seen, scrolled or w.__class__.__name__ == "ScrollView"
        for child in w.children:
            yield from walk(child, clip, scrolled)

    yield from walk(root, screen, False)


def interactive(w) -> bool:
    return isinstance(w, (ButtonBehavior, TextInput)) or w.__class__.__name__ == "MapView"


def touch_targets(widgets) -> list[str]:
    least = dp(MIN_TOUCH_DP) - SLACK
    problems = []
    for w, _full, _, _ in widgets:
        if isinstance(w, (ButtonBehavior, TextInput)) and (w.width < least or w.height < least):
            problems.append(f"{_name(w)} is {w.width / dp(1):.0f}x{w.height / dp(1):.0f} dp (under 48 dp)")
    return problems


def overlaps(widgets) -> list[str]:
    """Interactive widgets whose visible parts overlap; those and words that stick out of the window."""
    problems = []
    touchable = [(w, seen, full, scrolled) for w, full, seen, scrolled in widgets if interactive(w)]
    worded = [
        (w, seen, full, scrolled)
        for w, full, seen, scrolled in widgets
        if isinstance(w, Label) and not interactive(w) and w.text.strip()
    ]
    for w, _seen, full, scrolled in touchable + worded:
        if not scrolled and (
            full[0] < -SLACK or full[1] < -SLACK or full[2] > Window.width + SLACK or full[3] > Window.height + SLACK
        ):
            problems.append(
                f"{_name(w)} sticks out of the window ({full[0]:.0f},{full[1]:.0f})-({full[2]:.0f},{full[3]:.0f})"
            )
    for i, (a, ra, _, _) in enumerate(touchable):
        for b, rb, _, _ in touchable[i + 1 :]:
            if _related(a, b):
                continue
            both = _clip(ra, rb)
            if both and both[2] - both[0] > SLACK and both[3] - both[1] > SLACK:
                problems.append(f"{_name(a)} overlaps {_name(b)}")
    return problems


def _related(a, b) -> bool:
    """One inside the other (a spinner's own parts, a button in a map overlay)."""
    for x, y in ((a, b), (b, a)):
        p = x.parent
        while p is not None and p is not p.parent:
            if p is y:
                return True
            p = p.parent
    return False


def _core(label: Label, **changes):
    options = {x: getattr(label, x) for x in Label._font_properties}
    options.update(changes)
    core = (MarkupLabel if label.markup else CoreLabel)(**options)
    core.refresh()
    return core


@lru_cache(maxsize=4096)
def _word_width(word: str, font_name: str, font_size: float, bold: bool) -> float:
    core = CoreLabel(text=word, font_name=font_name, font_size=font_size, bold=bold)
    core.refresh()
    return core.content_width


def cut_text(widgets) -> list[str]:
    """Every visible label (a button's words too) shows all of its text: nothing drawn outside
    its box, no line dropped or shortened, no word broken in the middle."""
    problems = []
    for w, _full, _, _ in widgets:
        if not isinstance(w, Label) or not w.text.strip():
            continue
        tw, th = w.texture_size
        if tw > w.width + SLACK or th > w.height + SLACK:
            problems.append(
                f"{_name(w)}: its text ({tw:.0f}x{th:.0f} px) does not fit its box ({w.width:.0f}x{w.height:.0f})"
            )
            continue
        box_w, box_h = w.text_size
        if w.is_shortened:
            problems.append(f"{_name(w)}: shortened with an ellipsis")
            continue
        if box_w is not None:
            needed = _core(w, text_size=(box_w, None), shorten=False, max_lines=0).content_height
            if box_h is not None and needed > box_h + SLACK:
                problems.append(f"{_name(w)}: needs {needed:.0f} px of height, has {box_h:.0f} (lines cut)")
                continue
            words = MARKUP.sub("", w.text).split()
            for word in words:
                width = _word_width(word, w.font_name, w.font_size, w.bold)
                if width > box_w + SLACK:
                    problems.append(f"{_name(w)}: the word {word!r} is wider than its box: broken mid-word")
                    break
    return problems


def map_marks(map_view) -> list[str]:
    """The map's marks (names, scoreboard values, Caballero counts, the King, Grandes, mobile
    scoreboards, +N badges) never cover each other."""
    marks = list(getattr(map_view, "marks", []))
    problems = [] if marks else ["map: no marks drawn"]
    box = (map_view.x - SLACK, map_view.y - SLACK, map_view.right + SLACK, map_view.top + SLACK)
    for what, (x0, y0, x1, y1) in marks:
        if x0 < box[0] or y0 < box[1] or x1 > box[2] or y1 > box[3]:
            problems.append(f"map: {what} is cut by the map's edge")
    for i, (what_a, ra) in enumerate(marks):
        for what_b, rb in marks[i + 1 :]:
            both = _clip(ra, rb)
            if both and both[2] - both[0] > SLACK and both[3] - both[1] > SLACK:
                problems.append(f"map: {what_a} covers {what_b}")
    return problems + map_labels(map_view) + map_pieces(map_view)


MAP_LABEL_SP = 14  # region names, values, counts, every word on the map: readable from across the table


def map_labels(map_view) -> list[str]:
    """Every word and number the map draws is at least MAP_LABEL_SP."""
    from kivy.metrics import sp

    labels = list(getattr(map_view, "labels", []))
    problems = [] if labels else ["map: no words drawn"]
    for text, size in labels:
        if size < sp(MAP_LABEL_SP) - 0.5:
            problems.append(f"map: {text!r} is {size:.1f} px (under {sp(MAP_LABEL_SP):.1f})")
    return problems


SIDE_TEXT_SP = 14  # the table's side panel: no word smaller (21 px at 1920x1200)
GRID_LINES = 2  # a Modifier card's button (Power Shift): its words on two lines at most


@lru_cache(maxsize=256)
def _line_height(font_name: str, font_size: float, bold: bool) -> float:
    core = CoreLabel(text="Ag", font_name=font_name, font_size=font_size, bold=bold)
    core.refresh()
    return core.content_height


def _lines(label: Label) -> int:
    return max(1, round(label.texture_size[1] / _line_height(label.font_name, label.font_size, label.bold)))


def side_panel(table) -> list[str]:
    """The table screen's side panel: readable words at every shape, Modifier cards' buttons
    on two lines at most, choices running below the fold said in words, and a title that says
    each name once."""
    from kivy.metrics import sp

    problems = []
    panel = [table.ids.players, table.ids.actions, table.ids.more_below]
    labels = [w for root in panel for w in root.walk() if isinstance(w, Label) and w.text.strip()]
    for w in labels:
        if w.font_size < sp(SIDE_TEXT_SP) - 0.5:
            problems.append(f"side panel: {_name(w)} is {w.font_size:.1f} px (under {sp(SIDE_TEXT_SP):.1f})")
    for w in table._step_grid.children if table._step_grid.parent is not None else ():
        if _lines(w) > GRID_LINES:
            problems.append(f"side panel: {_name(w)} wraps onto {_lines(w)} lines")
    scroll, actions = table.ids.actions_scroll, table.ids.actions
    if actions.height > scroll.height + SLACK and scroll.scroll_y > 0.02 and not table.ids.more_below.text:
        problems.append("side panel: choices below the fold and nothing says so")
    names = [p["name"] for p in (table.model.public.get("game") or {}).get("players", [])]
    for name in set(names):
        if len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", table.prompt_title)) > 1:
            problems.append(f"title says {name!r} twice: {table.prompt_title!r}")
    return problems


def side_text_px(table) -> float:
    """The smallest words of the table's side panel, in pixels."""
    panel = [table.ids.players, table.ids.actions]
    return min(w.font_size for root in panel for w in root.walk() if isinstance(w, Label) and w.text.strip())


def _table_shown(root):
    """The table screen when it is what a person sees (no dialog over it), else None."""
    manager = root if root is not None else Window.children[0]
    if len(Window.children) > 1 or getattr(manager, "current", None) != "table":
        return None
    return manager.current_screen


def smallest_text(root=None) -> tuple[float, str]:
    """The smallest words a person sees on the screen: (their size in sp, the words), for
    bench/RESULTS.md's figure of the smallest text per screen and shape ((0, '') with no words)."""
    sizes = [
        (w.font_size / sp(1), MARKUP.sub("", w.text).strip()[:40])
        for w, _full, _seen, _ in shown_widgets(root)
        if isinstance(w, Label) and w.text.strip()
    ]
    return min(sizes, default=(0.0, ""))


def tightest_word(root=None) -> tuple[float, str, str]:
    """The word that comes closest to its box's width on the screen (a word cannot wrap; above
    1.0 it would be broken): (its width over the box's, the word, the words it is in), for
    bench/RESULTS.md's longest label against its widget ((0, '', '') with no wrapped words)."""
    tightest = (0.0, "", "")
    for w, _full, _seen, _ in shown_widgets(root):
        if not isinstance(w, Label) or not w.text.strip() or not w.text_size[0]:
            continue
        words = MARKUP.sub("", w.text).split()
        for word in sorted(set(words), key=len, reverse=True)[:3]:  # the longest by letters, measured
            ratio = _word_width(word, w.font_name, w.font_size, w.bold) / w.text_size[0]
            if ratio > tightest[0]:
                tightest = (round(ratio, 3), word, " ".join(words)[:60])
    return tightest


def check_screen(root=None) -> list[str]:
    widgets = list(shown_widgets(root))
    table = _table_shown(root)
    return touch_targets(widgets) + overlaps(widgets) + cut_text(widgets) + (side_panel(table) if table else [])


def map_pieces(map_view) -> list[str]:
    """Every player's piece on the map carries a second cue beside its colour: each stack its
    colour's mark, each Grande its owner's initial (colour is never the only cue)."""
    from companion.look.players import look_of

    drawn = list(getattr(map_view, "pieces", []))
    problems = []
    for mark in map_view.placed():
        if mark.kind == "counts":
            shown = [(colour, shape) for what, colour, shape, _ in drawn if what == f"stack of {mark.area}"]
            wanted = [(colour, look_of(colour).mark) for colour, _ in mark.items]
            if shown != wanted:
                problems.append(f"map: the stacks of {mark.area} show {shown}, not {wanted}")
        if mark.kind == "grande":
            initials = [i for what, colour, _, i in drawn if what == "grande" and colour == mark.owner]
            if look_of(mark.owner).initial not in initials:
                problems.append(f"map: {mark.owner}'s Grande in {mark.area} shows no initial")
    return problems
