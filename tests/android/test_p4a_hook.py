"""android/p4a_hook.py run as python-for-android runs it (`before_apk_assemble`, in the dist
folder) over the manifest p4a 2026.05.09's sdl2 template renders for buildozer.spec
(fixtures/AndroidManifest.sdl2.xml, written by fixtures/render_sdl2_manifest.py): one FileProvider
inside <application>, with the authority companion/ui/platform/android.py asks for, sharing the folder the
replay screen writes exports to on Android and nothing beside it. No APK is built here: whether
gradle, the manifest merger and a device agree is not tested."""

from __future__ import annotations

import importlib.util
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.storage.files import DATA_DIR_ENV
from companion.ui.platform import android
from tests.android.test_buildozer_spec import SPEC

ROOT = Path(__file__).parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "AndroidManifest.sdl2.xml"
A = "{http://schemas.android.com/apk/res/android}"
# The application id: p4a's build.gradle sets no applicationId, so it is the namespace, the
# spec's package; ${applicationId} in the manifest and getPackageName() on the device are this.
PACKAGE = f"{SPEC['app']['package.domain']}.{SPEC['app']['package.name']}"


def load_hook():
    """The hook module loaded from its file, the way p4a's load_source does."""
    spec = importlib.util.spec_from_file_location("pythonforandroid.hook", ROOT / "android" / "p4a_hook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = load_hook()


@pytest.fixture
def dist(tmp_path):
    """A dist as build.py leaves it before gradle: the rendered manifest, res/xml with the
    spec's device filter."""
    (tmp_path / "src/main/res/xml").mkdir(parents=True)
    (tmp_path / "src/main/AndroidManifest.xml").write_bytes(FIXTURE.read_bytes())
    (tmp_path / "src/main/res/xml/device_filter.xml").write_bytes((ROOT / "android/device_filter.xml").read_bytes())
    return tmp_path


def run_hook(dist: Path, monkeypatch) -> str:
    monkeypatch.chdir(dist)
    hook.before_apk_assemble(toolchain=None)
    return (dist / "src/main/AndroidManifest.xml").read_text(encoding="utf-8")


def test_one_file_provider_is_declared_inside_application_and_a_rebuild_adds_none(dist, monkeypatch):
    manifest = run_hook(dist, monkeypatch)
    root = ET.fromstring(manifest)
    assert root.findall(".//provider") == root.findall("./application/provider")
    [provider] = root.findall("./application/provider")
    assert provider.get(A + "name") == "androidx.core.content.FileProvider"
    assert provider.get(A + "authorities") == "${applicationId}" + android.FILE_PROVIDER_SUFFIX
    assert (provider.get(A + "exported"), provider.get(A + "grantUriPermissions")) == ("false", "true")
    [meta] = provider.findall("meta-data")
    assert meta.get(A + "name") == "android.support.FILE_PROVIDER_PATHS"
    assert meta.get(A + "resource") == "@xml/file_paths"
    res_xml = dist / "src/main/res/xml"
    assert (res_xml / "file_paths.xml").read_bytes() == (ROOT / "android/file_paths.xml").read_bytes()
    assert (res_xml / "device_filter.xml").is_file()
    assert manifest.replace(hook.PROVIDER, "") == FIXTURE.read_text(encoding="utf-8")  # nothing else moved
    assert run_hook(dist, monkeypatch) == manifest


def test_a_manifest_it_cannot_place_the_provider_in_stops_the_build_saying_why(dist, monkeypatch):
    manifest = dist / "src/main/AndroidManifest.xml"
    manifest.write_text(FIXTURE.read_text().replace("</application>", ""))
    with pytest.raises(hook.HookError, match=r"AndroidManifest.xml: no </application> to put the FileProvider in"):
        run_hook(dist, monkeypatch)
    manifest.unlink()
    with pytest.raises(hook.HookError, match="no rendered manifest"):
        run_hook(dist, monkeypatch)


def shared_uri(path: Path, files_dir: Path, paths_xml: Path) -> str | None:
    """The content URI androidx's FileProvider (SimplePathStrategy) gives `path`, None where it
    refuses (getUriForFile's IllegalArgumentException): the file, made canonical, must lie
    under a configured root; <files-path> roots are under Context.getFilesDir()."""
    roots = {}
    for element in ET.parse(paths_xml).getroot():
        assert element.tag == "files-path", f"{element.tag}: teach this model its root before sharing it"
        roots[element.get("name")] = Path(os.path.realpath(files_dir / element.get("path")))
    real = Path(os.path.realpath(path))
    for name, root in sorted(roots.items(), key=lambda item: -len(str(item[1]))):
        if real == root or root in real.parents:
            return f"content://{PACKAGE}{android.FILE_PROVIDER_SUFFIX}/{name}/{real.relative_to(root).as_posix()}"
    return None


def test_the_exports_folder_the_tablet_writes_to_is_shared_and_the_games_are_not(tmp_path, monkeypatch):
    from companion.ui.screens import (
        replay as replay_screen,  # Kivy imported before ANDROID_ARGUMENT is set (Kivy reads it)
    )

    files_dir = tmp_path / "files"  # Context.getFilesDir(), Kivy's App.user_data_dir on Android
    monkeypatch.setenv(DATA_DIR_ENV, "")
    monkeypatch.delenv(DATA_DIR_ENV)
    android.use_app_storage(str(files_dir), android=True)
    monkeypatch.setenv("ANDROID_ARGUMENT", str(files_dir / "app"))  # what p4a sets: on_android() is true
    folder = Path(replay_screen._default_folder())
    paths = ROOT / "android/file_paths.xml"
    export = folder / "el-grande-2026-11-27-2015.bgsplay"
    assert (
        shared_uri(export, files_dir, paths)
        == "content://org.elgrande.elgrandecompanion.fileprovider/exports/el-grande-2026-11-27-2015.bgsplay"
    )
    for private in ("games/2026-11-27-2015.jsonl", "app/main.py", "exports/../games/x.jsonl"):
        assert shared_uri(files_dir / private, files_dir, paths) is None, private
