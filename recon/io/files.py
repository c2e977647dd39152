"""Atomic output: a file is either the old one or the whole new one, never half written."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str, write: Callable[[str], None]) -> None:
    """Call write(temporary path) beside path, then rename the result over path."""
    directory = os.path.dirname(os.path.abspath(path))
    suffix = os.path.splitext(path)[1]
    fd, tmp = tempfile.mkstemp(prefix=".recon-", suffix=suffix, dir=directory)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text_atomically(path: str, text: str) -> None:
    """Write text (UTF-8, '\\n' line ends) to path atomically, synced to disk."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())

    write_atomically(path, write)
