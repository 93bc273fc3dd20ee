"""The BG Stats code on the tablet: a finished game's push link as a QR code with one line of what
it is for (the end screen shows it beside the standings; a finished game's replay opens it from a
button). A game the link cannot be made for (not finished, damaged, in memory) shows no code and
says why in one line; a link too long for any QR code says to use the BG Stats file instead."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView

from companion.plays.bgstats import ExportError, push_link
from companion.plays.qr import qr_texture
from companion.ui.theme import THEME
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import _

CODE_SIDE = dp(240)  # the code's side on the end screen: a 5-player link is a version 29 code (133 modules)


def code_button_words() -> str:
    """The replay's button that opens the code (its .kv reads the words here: the plays domain)."""
    return _("BG Stats code")


def link_or_why(record) -> tuple[str | None, str]:
    """(the push link, "") or (None, why there is none, in one line)."""
    try:
        return push_link(record), ""
    except ExportError as exc:
        return None, exc.said


class PlayCode(BoxLayout):
    """The code and its line; `show(record)` makes them for one game."""

    def __init__(self, side: float = CODE_SIDE, **kw):
        kw.setdefault("orientation", "vertical")
        kw.setdefault("size_hint", (None, None))
        super().__init__(spacing=dp(6), width=side + dp(16), **kw)
        self.side = side
        self.link: str | None = None
        self.picture = Image(size_hint=(None, None), size=(side, side), pos_hint={"center_x": 0.5})
        self.words = sheet_label("", font_size="15sp", color=THEME.ink)
        self.add_widget(self.picture)
        self.add_widget(self.words)
        self.words.bind(height=self._fit)

    def _fit(self, *_) -> None:
        self.height = (self.side if self.picture.opacity else 0) + self.words.height + dp(6)

    def show(self, record) -> bool:
        """The code of `record`'s play; False (and the line saying why) when there is none."""
        self.link, why = link_or_why(record) if record is not None else (None, "")
        texture = qr_texture(self.link) if self.link else None
        self.picture.texture = texture
        self.picture.opacity = 1 if texture is not None else 0
        if texture is not None:
            self.words.text = _("Scan with a phone to log this play in BG Stats")
        elif self.link:
            self.words.text = _("This play is too long for a QR code: log it with the BG Stats file instead")
        else:
            self.words.text = why
        self._fit()
        return texture is not None


def open_play_code(record) -> ModalView:
    """The code large, in a view of its own (the replay's "BG Stats code" button)."""
    view = ModalView(size_hint=(None, None), size=(dp(420), dp(540)), auto_dismiss=True)
    box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
    code = PlayCode(side=dp(360), pos_hint={"center_x": 0.5})
    code.show(record)
    box.add_widget(code)
    box.add_widget(sheet_button(_("Close"), view.dismiss))
    view.add_widget(box)
    view.open()
    return view
