"""A real ``healthbrokerd`` for tests: started on a temporary socket pair and data directory, stopped
with SIGTERM afterwards.

App developers can use it for their own tests, and the project's Python and browser tests do::

    with running_daemon("/usr/bin/healthbrokerd") as daemon:
        token = BrokerAdmin.connect(daemon.admin_socket).add_app("com.example.app")
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping, NamedTuple, Optional, Sequence

from .admin import BrokerAdmin
from .errors import BrokerError

__all__ = ["DaemonFailed", "RunningDaemon", "running_daemon"]


class DaemonFailed(RuntimeError):
    """The daemon did not start, or did not exit cleanly on SIGTERM; the message holds its log."""


class RunningDaemon(NamedTuple):
    """A started daemon: its process, sockets, data directory's parent folder and log file."""

    process: "subprocess.Popen[bytes]"
    app_socket: str
    admin_socket: str
    folder: Path
    log_path: Path


@contextmanager
def running_daemon(binary: os.PathLike | str, *, env: Optional[Mapping[str, str]] = None,
                   arguments: Sequence[str] = (), prefix: str = "hb-py-",
                   start_timeout: float = 30.0) -> Iterator[RunningDaemon]:
    """Starts ``binary`` on sockets in a new temporary folder, waits until its admin socket answers a
    ping (up to ``start_timeout`` s: a debug build on a busy machine starts slowly), yields it, then
    stops it with SIGTERM and removes the folder.

    Raises ``DaemonFailed`` if it exits before serving, does not serve in time, or exits with a
    non-zero status on SIGTERM (a daemon that crashed while stopping should fail the tests).
    """
    # A short folder: a Unix socket path must fit in 108 bytes.
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    app_socket, admin_socket = str(folder / "app.sock"), str(folder / "admin.sock")
    log_path = folder / "daemon.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(binary), "--socket", app_socket, "--admin-socket", admin_socket, "--data-dir", str(folder / "data"),
             "--log-level", "warning", *arguments],
            stdout=log, stderr=subprocess.STDOUT, env=dict(env) if env is not None else None)
    stopped_cleanly = False
    try:
        _wait_until_serving(process, admin_socket, log_path, start_timeout)
        yield RunningDaemon(process, app_socket, admin_socket, folder, log_path)
        stopped_cleanly = True
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        log_text = log_path.read_text(errors="replace")
        shutil.rmtree(folder, ignore_errors=True)
    # Only a run that got this far reports the exit status; an exception from the tests wins.
    if stopped_cleanly and code != 0:
        raise DaemonFailed(f"healthbrokerd exited with {code} on SIGTERM; its log:\n{log_text}")


def _wait_until_serving(process: "subprocess.Popen[bytes]", admin_socket: str, log_path: Path,
                        timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise DaemonFailed(f"healthbrokerd exited with {process.returncode}:\n"
                               f"{log_path.read_text(errors='replace')}")
        if os.path.exists(admin_socket):
            try:
                with BrokerAdmin.connect(admin_socket) as admin:
                    admin.ping(timeout=5)
                return
            except BrokerError:
                pass
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise DaemonFailed(f"healthbrokerd did not serve its admin socket within {timeout:g} s:\n"
                       f"{log_path.read_text(errors='replace')}")
