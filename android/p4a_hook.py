"""python-for-android hook (buildozer.spec: `p4a.hook`): declares androidx's FileProvider, through
which the app hands an exported game to the share sheet (companion/ui/platform/android.py `share_file`).

A <provider> must sit inside <application>, and python-for-android 2026.05.09 (the pinned
`p4a.branch`) has no option for that: --extra-manifest-xml writes at the <manifest> root,
--extra-manifest-application-arguments only adds attributes (--extra-manifest-application-xml
came in kivy/python-for-android#3377, after this release). So, once build.py has rendered the
dist's src/main/AndroidManifest.xml and before gradle assembles it, this inserts the provider
before </application> and copies android/file_paths.xml (the folders it may share) into
src/main/res/xml/. build.py renders the manifest and resets res/ on every build; a second run
over the same files changes nothing.

Runs on the build machine under p4a's Python: standard library only, nothing from the app."""

from __future__ import annotations

import shutil
from pathlib import Path

FILE_PATHS = Path(__file__).resolve().parent / "file_paths.xml"
MANIFEST = Path("src/main/AndroidManifest.xml")  # the one gradle reads, in the dist folder
RES_XML = Path("src/main/res/xml")
PROVIDER_CLASS = "androidx.core.content.FileProvider"
# ${applicationId}: gradle's manifest merger writes the application id, which is the
# package p4a gives gradle as the namespace (org.elgrande.elgrandecompanion), what
# Context.getPackageName() returns on the device. companion/ui/platform/android.py asks for the same.
AUTHORITY = "${applicationId}.fileprovider"

PROVIDER = f"""\
        <provider android:name="{PROVIDER_CLASS}"
                  android:authorities="{AUTHORITY}"
                  android:exported="false"
                  android:grantUriPermissions="true">
            <meta-data android:name="android.support.FILE_PROVIDER_PATHS"
                       android:resource="@xml/{FILE_PATHS.stem}" />
        </provider>
"""


class HookError(RuntimeError):
    """The dist is not what this hook expects: the build stops, saying what is missing."""


def declare_file_provider(dist_dir: Path) -> bool:
    """Provider into the dist's manifest, file_paths.xml into its res/xml. Returns True when
    the provider was inserted, False when the manifest already declared it."""
    manifest = dist_dir / MANIFEST
    if not manifest.is_file():
        raise HookError(f"{manifest}: no rendered manifest (is this a python-for-android dist?)")
    (dist_dir / RES_XML).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FILE_PATHS, dist_dir / RES_XML / FILE_PATHS.name)
    text = manifest.read_text(encoding="utf-8")
    if f'android:name="{PROVIDER_CLASS}"' in text:
        return False
    end = text.rfind("</application>")
    if end < 0:
        raise HookError(f"{manifest}: no </application> to put the FileProvider in")
    line_start = text.rfind("\n", 0, end) + 1
    at = line_start if not text[line_start:end].strip() else end  # the closing tag's own line, indented
    manifest.write_text(text[:at] + PROVIDER + text[at:], encoding="utf-8")
    return True


def before_apk_assemble(toolchain) -> None:
    """p4a calls this in the dist folder after build.py rendered it, before gradle (apk, aab)."""
    inserted = declare_file_provider(Path.cwd())
    print(f"p4a_hook: FileProvider {'declared' if inserted else 'already declared'} in {MANIFEST}")
