"""Import a card file (Your cards, King and Intrigue's cards): one found in the usual folders
(the exports folder, Downloads, Documents), or any path typed in; `on_import` checks it and says
'' or why not. Its frame is import_cards.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from companion.table_rules.card_file import import_candidates
from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.rule_widgets import TAP, WARN, button, grid, text
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ImportDialog(ModalView):
    """A card file to import: one found in the usual folders, or any path typed in."""

    body = ObjectProperty(None)  # import_cards.kv's box: paper, padded

    def __init__(self, on_import: Callable[[str], str]):
        super().__init__(size_hint=dialog_size((0.7, 0.85)), auto_dismiss=False)
        self._anim_duration = 0
        self.on_import = on_import
        body = self.body
        body.add_widget(text(_("Import a card file"), bold=True, font_size="22sp", halign="center"))
        body.add_widget(text(_("It replaces your card set once it is checked whole; a mistake changes nothing.")))
        scroll = ScrollView(do_scroll_x=False)
        files = grid(1)
        for path in import_candidates():
            files.add_widget(button(str(path), lambda p=path: self.choose(str(p)), key=f"file:{path.name}"))
        if not files.children:
            files.add_widget(
                text(_("No card file found in the exports folder, Downloads or Documents: type its path."))
            )
        scroll.add_widget(files)
        body.add_widget(scroll)
        self.path = TextInput(hint_text=_("or the file's full path"), multiline=False, size_hint_y=None, height=TAP)
        body.add_widget(self.path)
        self.error = text("", color=WARN, bold=True)
        body.add_widget(self.error)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(button(_("Cancel"), self.dismiss, "quiet", size_hint_y=1))
        row.add_widget(
            button(_("Import this file"), lambda: self.choose(self.path.text), "primary", size_hint_y=1, key="import")
        )
        body.add_widget(row)

    def choose(self, path: str) -> None:
        if not path.strip():
            self.error.text = _("Choose a file above or type its path")
            return
        self.path.text = path
        problem = self.on_import(path)
        if problem:
            self.error.text = problem
        else:
            self.dismiss()
