"""Safe output: a regular file is either the old one or the whole new one, never half written;
anything else named as output is written to, never replaced.

- A regular file (or a new name): written beside it under a temporary name, synced, then renamed
  over it atomically. The temporary file is removed if anything stops the write (an error,
  Ctrl-C, or SIGTERM, which the command line turns into an exception).
- A symbolic link: the file it points to is written as above; the link stays a link.
- A device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named pipe): written through, in
  place. Renaming a regular file over it would replace the device node itself.
- A directory: refused.

`check_writable_path` says before any work whether the output could be written at all, and
`same_file` whether two outputs would overwrite each other.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _target(path: str) -> str:
    """The file path names: a symbolic link's target (resolved), else path itself."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _is_special(path: str) -> bool:
    """Does path name something that exists and is neither a regular file nor a directory?"""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_writable_path(path: str) -> None:
    """Raise OSError (with a strerror) when path could not be written: a directory, a directory
    that does not exist or is not writable, or a special file that is not writable."""
    target = _target(path)
    if os.path.isdir(target):
        raise IsADirectoryError(21, "it is a directory", path)
    if _is_special(target):
        if not os.access(target, os.W_OK):
            raise PermissionError(13, "permission denied", path)
        return
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        raise FileNotFoundError(2, f"no directory {directory}", path)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(13, f"the directory {directory} is not writable", path)


def same_file(a: str, b: str) -> bool:
    """Do a and b name one regular file (or one new name), through links and relative paths?
    Devices, FIFOs and sockets never do: two outputs may both go to /dev/stdout."""
    a, b = _target(a), _target(b)
    if _is_special(a) or _is_special(b):
        return False
    try:
        return os.path.samefile(a, b)  # (hard links too)
    except OSError:  # one of them does not exist yet
        return os.path.realpath(a) == os.path.realpath(b)


def write_atomically(path: str, write: Callable[[str], None]) -> None:
    """Call write(a path) so that path ends up holding what it wrote (see the module's notes):
    a temporary file renamed over a regular file, the file itself when special."""
    target = _target(path)
    if _is_special(target):
        write(target)
        return
    directory = os.path.dirname(os.path.abspath(target))
    suffix = os.path.splitext(target)[1]
    fd, tmp = tempfile.mkstemp(prefix=".recon-", suffix=suffix, dir=directory)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text_atomically(path: str, text: str) -> None:
    """Write text (UTF-8, '\\n' line ends) to path safely; a regular file is synced to disk."""

    def write(where: str) -> None:
        with open(where, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            if os.path.isfile(where):
                os.fsync(handle.fileno())

    write_atomically(path, write)
