"""aiohttp from PyPI's official Android wheels (3.14.5: API 24, arm64-v8a and x86_64), in
place of p4a's own recipe, which is stuck at 3.8.3 and does not build on Python >= 3.12.
PyProjectRecipe looks for a prebuilt wheel for the target (android_24_<arch>, the python3
recipe's version) first and installs it; only without one does it build from source."""

from pythonforandroid.recipe import PyProjectRecipe


class AiohttpRecipe(PyProjectRecipe):
    version = "3.14.5"
    url = "https://files.pythonhosted.org/packages/source/a/aiohttp/aiohttp-{version}.tar.gz"
    name = "aiohttp"
    depends = ["setuptools"]
    site_packages_name = "aiohttp"


recipe = AiohttpRecipe()
