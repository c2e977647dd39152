"""Work that cannot stop part way, run in a forked child that is killed at the deadline.

HiGHS's rounds of cuts on a large model look at their time limit too seldom, and the compiled
trimmer not at all: under a time limit each runs in a child of its own, so that the limit holds
(and so that SIGTERM and Ctrl-C are not held off until it returns). Only on Linux (fork is cheap
there and keeps what the parent has loaded, such as numba's kernels), and not from a daemonic
process (a worker of multiprocessing's Pool or of Dask), which may have no children.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable

#: Seconds a child gets past the deadline to send an answer it has.
GRACE = 0.05


class ChildFailed(RuntimeError):
    """The child raised an exception (its type and text are the message) or ended without an answer."""


def can_fork() -> bool:
    """Can work go to a forked child here?"""
    import multiprocessing

    return sys.platform.startswith("linux") and not multiprocessing.current_process().daemon


def run(function: Callable, args: tuple, deadline: float | None) -> tuple[bool, object]:
    """(True, function(*args)) computed in a forked child, or (False, None) when the child has
    not answered by the deadline (plus GRACE). The child is always killed before this returns,
    also when the wait is interrupted. The caller checks `can_fork` first."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_in_child, args=(send, function, args), daemon=True)
    with warnings.catch_warnings():
        # (Python 3.12 on warns of forking a process with threads, such as BLAS's: the child
        # only runs the function and sends its answer back)
        warnings.simplefilter("ignore", DeprecationWarning)
        child.start()
    send.close()
    try:
        wait = None if deadline is None else max(deadline - time.perf_counter(), 0) + GRACE
        if not receive.poll(wait):
            return False, None
        ok, answer = receive.recv()
    except EOFError:
        raise ChildFailed("ended without an answer") from None
    finally:
        child.kill()
        child.join()
        receive.close()
    if not ok:
        raise ChildFailed(answer)
    return True, answer


def _in_child(send, function: Callable, args: tuple) -> None:
    try:
        answer = (True, function(*args))
    except Exception as err:  # (told to the parent, which raises it)
        answer = (False, f"{type(err).__name__}: {err}")
    send.send(answer)
    send.close()
