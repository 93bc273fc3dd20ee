"""The Android entry point (buildozer starts main.py): the same app as `elgrande app`."""

from companion.ui.platform.android import prepare_runtime

prepare_runtime()  # multidict, yarl, frozenlist, propcache: their pure-Python code, before aiohttp loads them

from companion.ui.app import run  # noqa: E402

run()
