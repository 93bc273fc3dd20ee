"""buildozer.spec checked offline, as far as it can be without the SDK, NDK and p4a: every
requirement resolves to a python-for-android recipe (android/p4a_recipes.json, read from p4a
2026.05.09's sources; or a local recipe in android/recipes/) or to a pure-Python wheel
recorded from PyPI (android/pure_wheels.json; `python android/check_wheels.py` checks those
online); the pins agree with pyproject.toml and with each other; the manifest parts (USB host,
the attach intent, the chips' ids), permissions, API levels, architectures, orientations and
the pictures are what the tablet needs."""

from __future__ import annotations

import ast
import configparser
import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from PIL import Image, ImageStat

from companion.ui.platform.android import PURE_PYTHON_ENV
from firmware_bridge.ports import TOWER_USB_IDS

ROOT = Path(__file__).parents[2]
ANDROID = ROOT / "android"


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_spec(text: str) -> configparser.ConfigParser:
    spec = configparser.ConfigParser()
    spec.read_string(text)
    return spec


def spec_requirements(spec) -> dict[str, str | None]:
    """{name: pinned version or None} from [app] requirements."""
    out = {}
    for item in spec.get("app", "requirements").split(","):
        item = item.strip()
        if not item:
            continue
        name, _, version = item.partition("==")
        if name != name.lower():  # p4a matches recipe names after lowercasing only
            raise ValueError(f"requirement {item!r}: write it in lower case")
        out[norm(name)] = version or None
    return out


def local_recipes() -> dict[str, str | None]:
    """{name: version} of android/recipes/<name>/__init__.py, read without importing p4a."""
    found = {}
    for init in sorted(ANDROID.glob("recipes/*/__init__.py")):
        tree = ast.parse(init.read_text())
        version = None
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["version"]:
                version = node.value.value
        found[norm(init.parent.name)] = version
    return found


def load(name: str) -> dict:
    return json.loads((ANDROID / name).read_text())


def problems(spec_text: str) -> list[str]:
    """Everything wrong with the requirements of a spec, one line each."""
    spec = read_spec(spec_text)
    reqs = spec_requirements(spec)
    p4a = {norm(k): v for k, v in load("p4a_recipes.json")["recipes"].items()}
    local = local_recipes()
    wheels = {norm(k): v for k, v in load("pure_wheels.json")["wheels"].items()}
    recipe_requires = {norm(k): v for k, v in load("pure_wheels.json")["recipe_requires"].items()}
    out = []
    for name, pin in reqs.items():
        if name in local:
            if pin and local[name] != pin:
                out.append(f"{name}=={pin}: the local recipe builds {local[name]}")
        elif name in p4a:
            if pin and p4a[name]["version"] and p4a[name]["version"] != pin:
                out.append(f"{name}=={pin}: p4a's recipe builds {p4a[name]['version']}")
        elif name in wheels:
            if pin != wheels[name]["version"]:
                out.append(f"{name}: pinned {pin}, the recorded pure wheel is {wheels[name]['version']}")
            if not re.search(r"-(py3|py2\.py3)-none-any\.whl$", wheels[name]["wheel"]):
                out.append(f"{name}: {wheels[name]['wheel']} is not a pure-Python wheel")
        else:
            out.append(f"{name}: neither a p4a recipe, a local recipe nor a recorded pure-Python wheel")
            continue
        needs = wheels[name]["requires"] if name in wheels else recipe_requires.get(name, {})
        for dep, spec_set in needs.items():
            dep = norm(dep)
            if dep not in reqs:
                out.append(f"{name} needs {dep}{spec_set}: not in the requirements")
            elif reqs[dep] and spec_set and reqs[dep] not in SpecifierSet(spec_set):
                out.append(f"{name} needs {dep}{spec_set}: pinned {reqs[dep]}")
    return out


SPEC_TEXT = (ROOT / "buildozer.spec").read_text()
SPEC = read_spec(SPEC_TEXT)


def test_every_requirement_is_a_recipe_or_a_pure_wheel_and_their_needs_are_met():
    assert problems(SPEC_TEXT) == []


def test_the_check_fails_on_a_requirement_without_recipe_or_wheel_and_on_bad_pins():
    bad = (
        SPEC_TEXT.replace("qrcode==8.2,", "qrcode==8.2,\n    numpy-quaternion==2024.0.3,")
        .replace("pydantic-core==2.41.4", "pydantic-core==2.50.2")
        .replace("idna==3.20,", "")
    )
    found = problems(bad)
    assert any(line.startswith("numpy-quaternion: neither a p4a recipe") for line in found), found
    assert any("pydantic-core==2.50.2: p4a's recipe builds 2.41.4" in line for line in found), found
    assert any("pydantic needs pydantic-core==2.41.4: pinned 2.50.2" in line for line in found), found
    assert any("yarl needs idna>=2.0: not in the requirements" in line for line in found), found
    with pytest.raises(ValueError, match="lower case"):
        spec_requirements(read_spec(SPEC_TEXT.replace("pydantic-core==", "Pydantic-Core==")))


def test_pins_agree_with_pyproject():
    deps = [Requirement(d) for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]
    reqs = spec_requirements(SPEC)
    for dep in deps:
        name = norm(dep.name)
        assert name in reqs, f"pyproject's {dep} is not in buildozer.spec's requirements"
        assert reqs[name], f"{name}: pin a version in buildozer.spec (the APK must be reproducible)"
        assert reqs[name] in dep.specifier, f"{name}=={reqs[name]} in buildozer.spec, pyproject.toml says {dep}"
        exact = [s.version for s in dep.specifier if s.operator == "=="]
        assert not exact or exact == [reqs[name]], f"{name}: pyproject pins {exact}, buildozer.spec {reqs[name]}"
    assert reqs["kivy"] == "2.3.1" == load("p4a_recipes.json")["recipes"]["kivy"]["version"]
    assert reqs["pydantic-core"] == load("p4a_recipes.json")["recipes"]["pydantic-core"]["version"]


def test_pure_python_switches_match_the_wheels_the_apk_ships():
    wheels = load("pure_wheels.json")["wheels"]
    assert {w["no_extensions_env"] for w in wheels.values() if "no_extensions_env" in w} == set(PURE_PYTHON_ENV)
    main = (ROOT / "main.py").read_text()
    assert main.index("prepare_runtime()") < main.index("from companion.ui.app import run")


def test_permissions_api_levels_architectures_and_orientations():
    app = SPEC["app"]
    assert {p.strip() for p in app["android.permissions"].split(",")} == {
        "INTERNET",
        "ACCESS_NETWORK_STATE",
        "ACCESS_WIFI_STATE",
        "WAKE_LOCK",
    }
    assert app["android.minapi"] == app["android.ndk_api"] == "24" and int(app["android.api"]) >= 34
    assert [a.strip() for a in app["android.archs"].split(",")] == ["arm64-v8a", "x86_64"]
    assert {"portrait", "landscape"} <= {o.strip() for o in app["orientation"].split(",")}
    assert "android.features" not in app  # p4a takes it as an unknown argument
    assert app["p4a.branch"] == "v" + load("p4a_recipes.json")["p4a_version"]
    assert (ROOT / app["p4a.local_recipes"]).is_dir()


def test_usb_host_feature_intent_and_the_towers_chips():
    app = SPEC["app"]
    assert 'android:name="android.hardware.usb.host"' in (ROOT / app["android.extra_manifest_xml"]).read_text()
    intent = (ROOT / app["android.manifest.intent_filters"]).read_text()
    assert "android.hardware.usb.action.USB_DEVICE_ATTACHED" in intent and "@xml/device_filter" in intent
    xml = ROOT / app["android.res_xml"]
    assert xml.name == "device_filter.xml"
    ids = {(int(d.get("vendor-id")), int(d.get("product-id"))) for d in ET.parse(xml).getroot()}
    vendors = {v for v, _ in ids}
    assert {0x0403, 0x10C4, 0x1A86, 0x067B, 0x2E8A} <= vendors  # FTDI, CP210x, CH34x, PL2303, CDC-ACM (Pico)
    missing = set(TOWER_USB_IDS) - ids
    assert not missing, f"boards the companion lists but Android would not offer: {sorted(map(hex, sum(missing, ())))}"


def test_the_file_provider_hook_and_androidx_core_are_in_the_build():
    app = SPEC["app"]
    hook = ROOT / app["p4a.hook"]  # buildozer passes --hook=<its realpath from the spec's folder>
    assert hook.is_file() and "\ndef before_apk_assemble(toolchain)" in hook.read_text()  # a name p4a calls
    assert [d.strip() for d in app["android.gradle_dependencies"].split(",")] == ["androidx.core:core:1.15.0"]
    assert int(app["android.api"]) >= 35  # androidx.core 1.15.0 needs compileSdk 35
    assert SPEC.getboolean("app", "android.enable_androidx")  # gradle.properties android.useAndroidX


@pytest.mark.parametrize("key, size", [("icon.filename", (512, 512)), ("presplash.filename", (1024, 1024))])
def test_the_icon_and_presplash_are_drawn(key, size):
    path = ROOT / SPEC.get("app", key, vars={"source.dir": "."})
    image = Image.open(path).convert("RGB")
    assert image.size == size
    assert max(ImageStat.Stat(image).stddev) > 20, f"{path.name} is (nearly) flat"
