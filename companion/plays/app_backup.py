"""Back up and Restore from the app's Settings (companion.plays.backup, the same as the command line).

Back up: a folder chosen with the folder picker (companion.ui.dialogs.folder_picker), the backup
written there as el-grande-backup-<day>.zip. On Android it is written to the app's exports folder
and offered through the share sheet (companion.ui.platform.android.share_file): to a drive, a
mail, another tablet.
Restore: a backup file chosen (on Android the system's file picker, android.pick_file; elsewhere
a folder chosen with the folder picker, then one of the backups in it), checked whole, then a
question when a card or board fact differs (this tablet's or the backup's), then merged; each
outcome said in one line. The Android parts are guarded and not yet tried on a device."""

from __future__ import annotations

import time
from pathlib import Path

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.ui.dialogs.dialog import dialog_button, wrapped_label
from companion.ui.theme import THEME
from companion.words import _

ZIP_MIME = "application/zip"


def back_up_words() -> str:
    return _("Back up")


def restore_words() -> str:
    return _("Restore")


def sheet(title: str, words: str, buttons: list[tuple[str, object, bool]]) -> ModalView:
    """A small view: its title, its words, its buttons (words, what a tap does, primary); any
    button closes it first."""
    view = ModalView(size_hint=(0.6, None), height=dp(320), auto_dismiss=True)
    box = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(10))
    with box.canvas.before:
        Color(rgba=THEME.card)
        paper = Rectangle(pos=box.pos, size=box.size)
    box.bind(pos=lambda w, v: setattr(paper, "pos", v), size=lambda w, v: setattr(paper, "size", v))
    box.add_widget(wrapped_label(title, bold=True, font_size="22sp", halign="center"))
    box.add_widget(wrapped_label(words, font_size="17sp"))
    for text, then, primary in buttons:
        box.add_widget(dialog_button(text, lambda then=then: (view.dismiss(), then and then()), primary))
    view.add_widget(box)
    view.open()
    return view


def _said(words: str) -> ModalView:
    return sheet(_("Back up and restore"), words, [(_("OK"), None, True)])


def _start_folder() -> Path:
    from companion.history.export import default_folder

    return default_folder().parent


def back_up() -> None:
    """Settings' "Back up"."""
    from companion.ui.platform import android

    if android.on_android():  # the app's exports folder: the share sheet takes it further
        from companion.table_rules.storage import exports_folder

        _write_backup(exports_folder(), share=True)
        return
    from companion.ui.dialogs.folder_picker import FolderPicker

    picker = FolderPicker(_start_folder(), lambda folder: _write_backup(folder))
    picker.title = _("Where to write the backup")
    picker.open()


def _write_backup(folder: Path, share: bool = False) -> None:
    from companion.plays.backup import BackupRefused, backup

    try:
        done = backup(folder / time.strftime("el-grande-backup-%Y-%m-%d-%H%M.zip"))
    except BackupRefused as exc:
        _said(str(exc))
        return
    if share:
        from companion.ui.platform import android

        android.share_file(str(done.path), ZIP_MIME, _("Keep the backup"))
    _said(done.words())


def restore() -> None:
    """Settings' "Restore"."""
    from companion.storage.files import data_dir
    from companion.ui.platform import android

    if android.pick_file(ZIP_MIME, lambda path: restore_file(Path(path)), str(data_dir() / "picked")) == "android":
        return
    from companion.ui.dialogs.folder_picker import FolderPicker

    picker = FolderPicker(_start_folder(), _backups_in)
    picker.title = _("Where is the backup?")
    for widget in picker.walk():  # its "Write here": here it opens the folder's backups
        if getattr(widget, "primary", False):
            widget.text = _("Look here")
    picker.open()


def _backups_in(folder: Path) -> None:
    try:
        found = sorted((p for p in folder.glob("*.zip") if p.is_file()), key=lambda p: -p.stat().st_mtime)
    except OSError:
        found = []
    if not found:
        _said(_("No backup in {folder}: a backup is a .zip file the app wrote").format(folder=folder.name))
        return
    view = ModalView(size_hint=(0.6, 0.8))
    box = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(8))
    with box.canvas.before:
        Color(rgba=THEME.card)
        paper = Rectangle(pos=box.pos, size=box.size)
    box.bind(pos=lambda w, v: setattr(paper, "pos", v), size=lambda w, v: setattr(paper, "size", v))
    box.add_widget(wrapped_label(_("Which backup?"), bold=True, font_size="22sp", halign="center"))
    scroll, column = ScrollView(do_scroll_x=False), BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6))
    column.bind(minimum_height=column.setter("height"))
    for path in found[:50]:
        column.add_widget(dialog_button(path.name, lambda p=path: (view.dismiss(), restore_file(p))))
    scroll.add_widget(column)
    box.add_widget(scroll)
    box.add_widget(dialog_button(_("Cancel"), view.dismiss))
    view.add_widget(box)
    view.open()


def restore_file(path: Path) -> None:
    """The backup checked, the question asked when a fact differs, then merged; said in one line."""
    from companion.plays.backup import BackupRefused, plan_restore

    try:
        plan = plan_restore(path)
    except BackupRefused as exc:
        _said(str(exc))
        return
    if not plan.conflicts:
        _carry_out(plan, None)
        return
    sheet(
        _("Your cards and Your board"),
        plan.question(),
        [
            (_("Keep this tablet's"), lambda: _carry_out(plan, False), False),
            (_("Take the backup's"), lambda: _carry_out(plan, True), True),
            (_("Cancel: restore nothing"), None, False),
        ],
    )


def _carry_out(plan, take_backup: bool | None) -> None:
    from companion.plays.backup import BackupRefused
    from companion.plays.backup import restore as restore_plan

    try:
        _said(restore_plan(plan, take_backup).words())
    except BackupRefused as exc:
        _said(str(exc))
