"""The catalogues: every message the sources mark is translated in every language, with the
same named placeholders; the language is chosen as the README says; English needs no catalogue."""

import pytest

from companion.words import _, catalogue, choice, language, ngettext, tool, use_language


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    use_language("en")


def test_every_catalogue_is_complete_with_the_same_placeholders():
    for report in tool.report_all():
        assert report.missing == [], f"{report.code}: messages not in its catalogue (scripts/words.py update)"
        assert report.untranslated == [], f"{report.code}: untranslated"
        assert report.fuzzy == [], f"{report.code}: fuzzy"
        assert report.wrong_placeholders == [], f"{report.code}: placeholders differ from the English"
        assert report.translated > 0


def test_codes_are_normalised_and_unknown_ones_are_english():
    assert catalogue.normalise("de_DE.UTF-8") == "de"
    assert catalogue.normalise("es-AR") == "es"
    assert catalogue.normalise("FR") == "fr"
    assert catalogue.normalise("it_IT") == "en"
    assert catalogue.normalise(None) == "en"


def test_the_environment_wins_over_the_kept_choice_which_wins_over_the_system(monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", choice.LANG_ENV):
        monkeypatch.delenv(name, raising=False)
    assert choice.chosen_language("system") == "fr"
    assert choice.chosen_language("es") == "es"
    monkeypatch.setenv(choice.LANG_ENV, "de")
    assert choice.chosen_language("es") == "de"


def test_plural_forms_follow_the_language_rule():
    # French counts 0 and 1 as singular, German and English only 1.
    use_language("fr")
    assert catalogue.translations("fr").plural(0) == 0
    use_language("de")
    assert catalogue.translations("de").plural(0) == 1
    assert language() == "de"
    use_language("en")
    assert ngettext("{n} Caballero", "{n} Caballeros", 1) == "{n} Caballero"


def test_a_translated_message_reads_in_the_language_in_use():
    message = "There is no setting called “{key}”"
    assert _(message) == message
    use_language("de")
    assert _(message) != message and "{key}" in _(message)


def test_a_damaged_catalogue_leaves_english_rather_than_stopping(tmp_path, monkeypatch):
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "broken.po").write_bytes(b'msgid "a"\nmsgstr "b\n\x00garbage')
    monkeypatch.setattr(catalogue, "LOCALE_DIR", tmp_path)
    catalogue.forget_loaded()
    try:
        assert catalogue.translations("de").gettext("Home") == "Home"
    finally:
        monkeypatch.undo()
        catalogue.forget_loaded()


def test_a_message_in_several_domains_reads_the_same_in_each():
    # every domain is merged into one lookup: the first domain holding a message would win silently
    from collections import defaultdict

    from babel.messages.pofile import read_po

    for code in tool.translated_languages():
        seen: dict = defaultdict(dict)
        for po in sorted((catalogue.LOCALE_DIR / code / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as file:
                for message in read_po(file, locale=code):
                    if message.id:
                        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
                        seen[key][po.stem] = message.string
        differ = {key: by for key, by in seen.items() if len({str(s) for s in by.values()}) > 1}
        assert not differ, f"{code}: {differ}"
