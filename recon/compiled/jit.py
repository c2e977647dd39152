"""The one lazy-jit helper: kernels are plain Python until `load` compiles them with numba.

numba is optional (the `fast` extra) and costs a fresh process about a third of a second to
import, so no kernel module imports it. Each kernel is marked with `@kernel`; `load` replaces
every marked function, in every module that holds it by name, by its numba dispatcher. That
rebinding is needed because a compiled kernel finds the kernels it calls through its own
module's globals when it is first compiled (every module of this package is rebound). Without
numba the Python functions still run (the tests call some of them directly), only slowly.
"""

from __future__ import annotations

import functools
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


#: The file, in numba's cache directory for this package, that names the sources its entries were
#: compiled from (`sources_stamp`).
STAMP_FILE = "recon-kernels.stamp"


def _here():
    import os
    from pathlib import Path

    return Path(os.path.abspath(__file__)).parent


def cache_dir():
    """Where numba keeps this package's cache by default: NUMBA_CACHE_DIR/<dir name>_<sha1 of
    the dir's path>, else `__pycache__` beside the sources (numba's own locators)."""
    import hashlib
    import os
    from pathlib import Path

    here = _here()
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return Path(custom) / f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}" if custom else here / "__pycache__"


#: The recon modules outside this package that the kernel modules import names from (constants
#: and functions their cached machine code may hold; tests/test_options.py derives this list from
#: their import statements and holds it to this one).
IMPORTED_SOURCES = ("model.py", "result.py", "rules/__init__.py", "rules/closure.py", "rules/trim.py")


def stamped_sources() -> list:
    """The files whose text the cached machine code depends on: the kernel modules, this one, and
    IMPORTED_SOURCES."""
    here = _here()
    return sorted([here / f"{name}.py" for name in (*KERNEL_MODULES, "jit")]
                  + [here.parent / name for name in IMPORTED_SOURCES])


def _signature(path) -> tuple:
    """A file and its size and time: what the memo below is keyed by, as numba keys its hashes."""
    stat = path.stat()
    return path, stat.st_mtime_ns, stat.st_size


def sources_stamp() -> str:
    """A hash of `stamped_sources` and the Python version. numba checks a cached kernel only
    against the file that defines it, while the machine code it keeps holds every kernel it calls
    and every global it reads, from other files too (numba's documented limit, issue 1833): an
    edit there would leave old code in use. So the whole cache goes when this stamp changes."""
    return _stamp(tuple(_signature(path) for path in stamped_sources()))


@functools.lru_cache(maxsize=8)
def _stamp(sources: tuple) -> str:
    import hashlib

    digest = hashlib.sha256(f"py{sys.version_info.major}{sys.version_info.minor}".encode())
    for path, _, _ in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cached() -> bool:
    """Does numba's on-disk cache hold this package's kernels, compiled from these sources? Read
    off the cache's index files and the stamp `load` writes beside them (NUMBA_CACHE_DIR, else
    `__pycache__` beside the sources), without importing numba. A wrong answer costs time, never
    a different result: it only decides whether a small job compiles or runs in Python."""
    where = cache_dir()
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    try:
        if (where / STAMP_FILE).read_text() != sources_stamp():
            return False
    except OSError:
        return False
    return all(any(where.glob(f"{name}.*.{tag}.nbi")) for name in KERNEL_MODULES)


def drop_stale_cache(where) -> bool:
    """Make numba's cache directory `where` safe to load from: when its stamp is not this
    package's `sources_stamp`, delete the kernels' entries and write the stamp. False when that
    could not be done (a read-only directory): then the caller must not use the cache."""
    import os

    stamp = sources_stamp()
    path = where / STAMP_FILE
    try:
        if path.read_text() == stamp:
            return True
    except OSError:
        pass
    try:
        where.mkdir(parents=True, exist_ok=True)
        for name in KERNEL_MODULES:
            for entry in [*where.glob(f"{name}.*.nbi"), *where.glob(f"{name}.*.nbc")]:
                entry.unlink(missing_ok=True)
        temporary = where / f"{STAMP_FILE}.{os.getpid()}"
        temporary.write_text(stamp)
        os.replace(temporary, path)
    except OSError:
        return False
    return True


def _import_arraymath_unprobed() -> None:
    """Import numba's array functions with their BLAS probe answered from scipy's presence.

    That module imports all of scipy.linalg when it is imported, only to choose how np.correlate
    takes inner products (docs/decisions.md); no kernel here uses BLAS. np.dot still imports BLAS
    itself when a kernel that uses it is compiled, so nothing else changes."""
    import numba.np.linalg as linalg

    probe = getattr(linalg, "ensure_blas", None)
    if probe is None or "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return  # another numba, or nothing to save

    def unprobed() -> None:
        raise ImportError("BLAS is looked for when a kernel needs it")

    linalg.ensure_blas = unprobed  # arraymath binds this name when it is imported
    try:
        import numba.np.arraymath as arraymath
    finally:
        linalg.ensure_blas = probe
    arraymath.ensure_blas = probe
    arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None


def is_loaded() -> bool:
    """Has this process compiled (or loaded from numba's cache) the kernels already?"""
    return _loaded


def load(announce: Callable[[str], None] | None = None) -> None:
    """Compile every kernel once (numba caches the machine code on disk). When the cache does not
    hold them yet, tell `announce` first: a first run takes a while and a caller may want to say
    why it waits. Loading them from the cache (under a second) is not worth a line."""
    global _loaded
    if _loaded:
        return
    if not AVAILABLE:
        raise RuntimeError("the compiled kernels need numba: pip install 'recon[fast]'")
    if announce is not None and not cached():
        announce("compiling numba's kernels as they are first used (up to about 30 s in all on a 2-core "
                 "machine, once: later runs load them from numba's cache; `recon warmup` does it ahead)")
    import numba

    _import_arraymath_unprobed()
    from importlib import import_module
    from pathlib import Path

    for name in KERNEL_MODULES:  # the package loads them on first use: all of them are compiled at once
        import_module(f"{__package__}.{name}")
    jit = numba.njit(cache=True, nogil=True)
    compiled = {function: jit(function) for function in _KERNELS}
    # numba loads a cache entry on a kernel's first call, so the stale ones go before any call
    where = getattr(getattr(next(iter(compiled.values())), "_cache", None), "_cache_path", None)
    if not drop_stale_cache(Path(where) if where else cache_dir()):
        jit = numba.njit(cache=False, nogil=True)  # a cache we cannot clean is not read: compile afresh
        compiled = {function: jit(function) for function in _KERNELS}
    for module in [m for name, m in list(sys.modules.items()) if name.startswith(__package__ + ".")]:
        for attr, value in list(vars(module).items()):
            if isinstance(value, types.FunctionType) and value in compiled:
                setattr(module, attr, compiled[value])
    _loaded = True
