"""usbserial4a: pure Python, published on PyPI as a source archive only (no wheel), so a
recipe installs it from that archive; it needs usb4a and pyjnius on the device."""

from pythonforandroid.recipe import PythonRecipe


class Usbserial4aRecipe(PythonRecipe):
    version = "0.4.0"
    url = "https://files.pythonhosted.org/packages/source/u/usbserial4a/usbserial4a-{version}.tar.gz"
    name = "usbserial4a"
    depends = ["usb4a", "pyjnius", "setuptools"]
    call_hostpython_via_targetpython = False
    site_packages_name = "usbserial4a"


recipe = Usbserial4aRecipe()
