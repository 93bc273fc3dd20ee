"""The data folder: where the companion keeps its files."""

import pytest

from companion.storage.files import data_dir


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_data_dir_follows_the_override(folder):
    assert data_dir() == folder
