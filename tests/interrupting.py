"""Start a command as a person at a terminal runs it, to stop it with a real Ctrl-C (SIGINT)."""
from __future__ import annotations

import os
import signal
import subprocess


def _interrupt_by_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started_at_a_terminal(args: list[str], **popen) -> subprocess.Popen:
    """The command started with Ctrl-C handled as at a terminal, in a process group of its own.

    A shell that starts a job in the background (`cmd &`, some CI runners) ignores SIGINT in it, and every child
    inherits that: Python then never turns SIGINT into KeyboardInterrupt, and a Ctrl-C sent by the test is lost.
    """
    return subprocess.Popen(args, preexec_fn=_interrupt_by_default, start_new_session=True, **popen)


def output_when_done(child: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The child's stdout and stderr once it has ended; if it has not within `timeout` seconds, it is killed with
    every process it started (a search's workers) before the test fails, so that none runs on."""
    try:
        return child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise AssertionError(f"{' '.join(map(str, child.args))} still ran {timeout} s after Ctrl-C") from None
