"""Move module constants of photosolve.vision for a bench line, wherever they were bound by name.

The vision modules import each other's constants by name (`from .masks import SOLID`), so a constant is changed in
its own module and in every module of photosolve.vision that imported it from there, and put back after. Used by
bench/find_constants.py and bench/selflabel_constants.py: each --set is `module.NAME=VALUE[,module.NAME=VALUE]`,
the value a Python literal (tuples allowed), given in the constant's own type (a count stays a whole number). What a
module worked out from a constant when it was imported (a default argument, another constant) is not changed.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import pkgutil
import sys

import numpy as np

import photosolve.vision

PACKAGE = "photosolve.vision"

Change = tuple[list[object], str, object]  # the modules that hold the name, the name, the new value


def vision_modules() -> dict[str, object]:
    """Every module of photosolve.vision, imported, by its full name."""
    for info in pkgutil.walk_packages(photosolve.vision.__path__, PACKAGE + "."):
        importlib.import_module(info.name)
    return {name: module for name, module in sys.modules.items()
            if (name == PACKAGE or name.startswith(PACKAGE + ".")) and module is not None}


def importers(defining: str, name: str, modules: dict[str, object]) -> list[object]:
    """The modules that bound `name` from module `defining` (`from .masks import NAME`), the defining one first."""
    return [modules[defining], *(module for module_name, module in modules.items()
                                 if module_name != defining and hasattr(module, name)
                                 and imported_from(module_name, name, modules) == defining)]


def imported_from(module_name: str, name: str, modules: dict[str, object]) -> str | None:
    """The module `module_name` bound `name` from (`from .masks import NAME`), or None where it defines it."""
    module = modules[module_name]
    package = module_name if hasattr(module, "__path__") else module_name.rpartition(".")[0]
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom) and any(alias.name == name and alias.asname is None
                                                    for alias in node.names):
            return importlib.util.resolve_name("." * node.level + (node.module or ""), package)
    return None


def origin(module_name: str, name: str, modules: dict[str, object]) -> str:
    """The module that defines `name`, followed from `module_name` through its imports (`from .trials import NAME`):
    a constant set where it was only imported would leave the defining module, and every other that imported it, as
    they were."""
    source = imported_from(module_name, name, modules)
    return origin(source, name, modules) if source in modules else module_name


def parsed(setting: str, modules: dict[str, object], packages: tuple[str, ...],
           default_module: str | None = None) -> list[Change]:
    """One --set's changes. `module.NAME` is looked up as packages[0].module, packages[1].module, ...; a bare NAME
    is default_module's."""
    changes = []
    for item in filter(None, split_top(setting)):
        target, _, text = item.partition("=")
        module_name, _, name = target.strip().rpartition(".")
        candidates = [f"{package}.{module_name}" for package in packages] if module_name else [default_module]
        defining = next((c for c in candidates if c in modules and hasattr(modules[c], name)), None)
        if defining is None:
            raise SystemExit(f"no constant {target.strip()} in {' or '.join(map(str, candidates))}")
        defining = origin(defining, name, modules)
        current = getattr(modules[defining], name)
        value = ast.literal_eval(text.strip())
        if isinstance(current, (int, float)) and isinstance(value, (int, float)):
            value = type(current)(value)
        elif isinstance(current, np.ndarray):  # weights given as a tuple stay an array of their dtype
            value = np.asarray(value, dtype=current.dtype)
        changes.append((importers(defining, name, modules), name, value))
    return changes


def split_top(setting: str) -> list[str]:
    """A setting split at the commas outside brackets: `masks.FACE_THRESHOLDS=(1.0,0.6),masks.SOLID=0.8`."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(setting):
        depth += (char in "([") - (char in ")]")
        if char == "," and depth == 0:
            items.append(setting[start:i])
            start = i + 1
    return [*items, setting[start:]]


@contextlib.contextmanager
def moved(changes: list[Change]):
    """The constants changed for the duration of the block, then put back."""
    kept = [(module, name, getattr(module, name)) for holders, name, _ in changes for module in holders]
    for holders, name, value in changes:
        for module in holders:
            setattr(module, name, value)
    try:
        yield
    finally:
        for module, name, value in kept:
            setattr(module, name, value)
