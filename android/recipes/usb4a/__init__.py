"""usb4a: Android's UsbManager through pyjnius (pure Python); a recipe so that it is built
after pyjnius and usbserial4a can depend on it."""

from pythonforandroid.recipe import PythonRecipe


class Usb4aRecipe(PythonRecipe):
    version = "0.3.0"
    url = "https://files.pythonhosted.org/packages/source/u/usb4a/usb4a-{version}.tar.gz"
    name = "usb4a"
    depends = ["pyjnius", "setuptools"]
    call_hostpython_via_targetpython = False
    site_packages_name = "usb4a"


recipe = Usb4aRecipe()
