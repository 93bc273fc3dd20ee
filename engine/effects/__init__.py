"""Special-action effects, one file each, named as in the card data (`"effect": "militia"`
is engine/effects/militia.py). Importing this package registers them all; see
engine/effect_registry.py for what an effect is."""
from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
