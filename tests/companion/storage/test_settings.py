"""companion.storage.settings: the tablet's settings kept whole, read back, a bad file harmless,
a wrong value or a refused write said in one line with nothing changed."""

import pytest

from companion.storage import settings
from companion.storage.files import SaveFailed


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_first_start_has_the_day_theme():
    assert settings.load_settings() == {"theme": "day", "language": "system"}


def test_a_chosen_theme_is_kept_for_the_next_start(folder):
    assert settings.save_setting("theme", "evening") == {"theme": "evening", "language": "system"}
    assert settings.load_settings()["theme"] == "evening"
    assert [p.name for p in folder.iterdir()] == ["settings.json"]  # no half-written copy left


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"theme": "neon", "x": 1}', b"\xff\xfe"])
def test_a_damaged_or_foreign_file_reads_as_the_defaults(folder, content):
    (folder / "settings.json").write_bytes(content)
    assert settings.load_settings() == {"theme": "day", "language": "system"}


def test_a_value_not_offered_is_refused_naming_the_choices(folder):
    with pytest.raises(settings.SettingRefused, match="day, evening"):
        settings.save_setting("theme", "neon")
    with pytest.raises(settings.SettingRefused, match="no setting called “volume”"):
        settings.save_setting("volume", "11")
    assert not (folder / "settings.json").exists()


def test_a_full_storage_keeps_the_old_choice_and_says_so(folder, monkeypatch):
    import errno

    from companion.storage import files

    settings.save_setting("theme", "evening")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "write_all", full)
    with pytest.raises(SaveFailed, match="storage is full"):
        settings.save_setting("theme", "day")
    assert settings.load_settings()["theme"] == "evening"
    assert [p.name for p in folder.iterdir()] == ["settings.json"]
