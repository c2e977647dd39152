"""The one lazy-jit helper: kernels are plain Python until `load` compiles them with numba.

numba is optional (the `fast` extra) and costs a fresh process about a third of a second to
import, so no kernel module imports it. Each kernel is marked with `@kernel`; `load` replaces
every marked function, in every module that holds it by name, by its numba dispatcher. That
rebinding is needed because a compiled kernel finds the kernels it calls through its own
module's globals when it is first compiled (every module of this package is rebound). Without
numba the Python functions still run (the tests call some of them directly), only slowly.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable

#: Is numba installed? (It is imported only by `load`.)
AVAILABLE = importlib.util.find_spec("numba") is not None

_KERNELS: set[types.FunctionType] = set()  # every function marked @kernel
#: The modules that define kernels (load imports them all before compiling).
KERNEL_MODULES = ("basic", "pairwise", "elimination", "search", "trim")
_loaded = False


def kernel(function: types.FunctionType) -> types.FunctionType:
    """Mark a function to be compiled by `load`."""
    _KERNELS.add(function)
    return function


def cached() -> bool:
    """Does numba's on-disk cache hold this package's kernels, newer than their sources? Read off
    the cache's index files where numba keeps them (NUMBA_CACHE_DIR, else `__pycache__` beside
    the sources), without importing numba. A wrong answer costs time, never a different result:
    it only decides whether a small job compiles or runs in Python."""
    import hashlib
    import os
    from pathlib import Path

    here = Path(os.path.abspath(__file__)).parent
    custom = os.environ.get("NUMBA_CACHE_DIR")
    # numba's locators: NUMBA_CACHE_DIR/<dir name>_<sha1 of the dir's path>, else __pycache__
    where = (Path(custom) / f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}" if custom
             else here / "__pycache__")
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    for name in KERNEL_MODULES:
        source = here / f"{name}.py"
        stamps = [f.stat().st_mtime for f in where.glob(f"{name}.*.{tag}.nbi")] if where.is_dir() else []
        if not stamps or max(stamps) < source.stat().st_mtime:
            return False
    return True


def is_loaded() -> bool:
    """Has this process compiled (or loaded from numba's cache) the kernels already?"""
    return _loaded


def load(announce: Callable[[str], None] | None = None) -> None:
    """Compile every kernel once (numba caches the machine code on disk); tell `announce` first,
    since a first run takes a while and a caller may want to say why it waits."""
    global _loaded
    if _loaded:
        return
    if not AVAILABLE:
        raise RuntimeError("the compiled kernels need numba: pip install 'recon[fast]'")
    if announce is not None:
        announce("loading numba's compiled kernels (a first run compiles them as they are first used, up to "
                 "about 30 s in all on a 2-core machine; later runs load them from numba's cache in about a second)")
    import numba

    from importlib import import_module

    for name in KERNEL_MODULES:  # the package loads them on first use: all of them are compiled at once
        import_module(f"{__package__}.{name}")
    jit = numba.njit(cache=True, nogil=True)
    compiled = {function: jit(function) for function in _KERNELS}
    for module in [m for name, m in list(sys.modules.items()) if name.startswith(__package__ + ".")]:
        for attr, value in list(vars(module).items()):
            if isinstance(value, types.FunctionType) and value in compiled:
                setattr(module, attr, compiled[value])
    _loaded = True
