"""Where a finished game is written: a folder chosen by taps, not typed. The folder open is named
at the top (by its short name); its folders are one tap each to go in, Up goes out, and "Write
here" chooses it. Its layout is folder_picker.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty

from companion.history.export import nearest_folder, subfolders
from companion.ui.dialogs.dialog import Dialog, dialog_button
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class FolderPicker(Dialog):
    where = StringProperty("")  # the open folder, by its short name
    can_go_up = BooleanProperty(True)

    def __init__(self, start: Path, chosen: Callable[[Path], None]):
        super().__init__(_("Where to write the game"), size_hint=(0.6, 0.85), portrait_hint=(0.92, 0.8))
        self.chosen = chosen
        self.open_folder(nearest_folder(start))

    def open_folder(self, folder: Path) -> None:
        self.folder = folder
        self.where = folder.name or str(folder)
        self.can_go_up = folder.parent != folder
        box = self.ids.folders
        box.clear_widgets()
        inside = subfolders(folder)
        for sub in inside:
            box.add_widget(dialog_button(sub.name, lambda s=sub: self.open_folder(s)))
        self.message.text = "" if inside else _("No folders in here: write here, or go up.")

    def up(self) -> None:
        if self.can_go_up:
            self.open_folder(self.folder.parent)

    def choose(self) -> None:
        self.dismiss()
        self.chosen(self.folder)
