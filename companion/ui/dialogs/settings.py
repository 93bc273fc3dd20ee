"""The tablet's settings: the day or the evening theme (a dim room) and the language the table
reads, each kept for the next start. A theme recolours every screen at once; a language is in
use at once too (the app makes its screens again in it, the game in progress untouched). A
refused write says so in one line and keeps things as they were. Its layout is settings.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty

from companion.look.tokens import THEME_NAMES
from companion.storage.files import SaveFailed
from companion.storage.settings import CHOICES, load_settings, save_setting
from companion.ui.dialogs.sheet import Sheet
from companion.ui.theme import THEME, use
from companion.words import LANGUAGES, N_, _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

THEME_WORDS = {
    "day": N_("Day: dark words on the board's paper"),
    "evening": N_("Evening: light words on deep brown, for a dim room"),
}
SYSTEM = "system"


def language_words(choice: str) -> str:
    """A language by its own name ("Deutsch"); the system's in the language in use."""
    return _("System language") if choice == SYSTEM else LANGUAGES[choice]


class Settings(Sheet):
    """Day or evening, and the language; the choice in use is marked in words ('in use'), not by
    colour alone."""

    theme = StringProperty("")
    language = StringProperty("")  # the kept choice: "system", "en", "de", "es" or "fr"
    trouble = StringProperty("")  # a refused write, in one line

    def __init__(self, trouble: str = ""):
        super().__init__(
            _("Settings"),
            theme=THEME.name,
            language=load_settings()["language"],
            trouble=trouble,
            size_hint=(0.7, 0.8),
            portrait_hint=(0.94, 0.7),
        )
        from companion.ui.widgets.common import SheetButton

        self.language_buttons = {}
        for choice in CHOICES["language"]:
            button = self.language_buttons[choice] = SheetButton(least=dp(56))
            button.bind(on_release=lambda _b, c=choice: self.choose_language(c))
            self.ids.languages.add_widget(button)
        self.bind(language=self._mark_language)
        self._mark_language()

    def _mark_language(self, *_) -> None:
        for choice, button in self.language_buttons.items():
            button.text = self.language_words(choice, self.language)
            button.primary = choice == self.language

    def words(self, name: str, theme: str) -> str:
        words = _(THEME_WORDS[name])
        return _("{choice}   (in use)").format(choice=words) if name == theme else words

    def language_words(self, choice: str, kept: str) -> str:
        words = language_words(choice)
        return _("{choice}   (in use)").format(choice=words) if choice == kept else words

    def choose(self, name: str) -> None:
        if name not in THEME_NAMES:
            return
        try:
            save_setting("theme", name)
        except SaveFailed as exc:
            self.trouble = exc.words(_("the theme"))
            return
        use(THEME, name)
        self.theme, self.trouble = name, ""

    def choose_language(self, choice: str) -> None:
        """Kept, then in use now: the screens are made again in it and this sheet opens again in
        it (the game in progress stays as it was)."""
        if choice not in CHOICES["language"]:
            return
        try:
            save_setting("language", choice)
        except SaveFailed as exc:
            self.trouble = exc.words(_("the language"))
            return
        self.language, self.trouble = choice, ""
        app = App.get_running_app()
        speak = getattr(app, "speak", None)
        if callable(speak):
            self.dismiss()
            speak(choice)
            Settings().open()
