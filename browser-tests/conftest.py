"""Fixtures for the browser tests of `healthctl ui`: a daemon of their own (no other consent agent
may answer their prompts), the `healthctl ui` process, and a headless Chromium driven over the
DevTools protocol (cdp.py).

Everything runs in one fixed time zone (TZ=America/New_York: far from UTC, so a date taken as UTC
midnight instead of local midnight shows). Set HB_UI_SCREENSHOTS to a folder (docs/images) to keep
the screenshots the tests take.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Optional

import pytest

UI_DIR = Path(__file__).resolve().parent
REPO = UI_DIR.parent
CLIENT_DIR = REPO / "clients" / "python"
sys.path.insert(0, str(CLIENT_DIR))
sys.path.insert(0, str(UI_DIR))

from healthbroker import BrokerAdmin, BrokerError, HealthStore  # noqa: E402

from cdp import Browser, Page  # noqa: E402
from ui_support import App, binary, environment  # noqa: E402



class UIDaemon(NamedTuple):
    app_socket: str
    admin_socket: str
    folder: Path


class UIServer(NamedTuple):
    url: str
    port: int
    process: "subprocess.Popen[bytes]"


@pytest.fixture(scope="module")
def ui_daemon() -> Iterator[UIDaemon]:
    folder = Path(tempfile.mkdtemp(prefix="hb-ui-"))
    app_socket, admin_socket = str(folder / "app.sock"), str(folder / "admin.sock")
    log_path = folder / "daemon.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(binary("healthbrokerd", "HEALTHBROKERD")), "--socket", app_socket, "--admin-socket", admin_socket,
             "--data-dir", str(folder / "data"), "--log-level", "warning"],
            stdout=log, stderr=subprocess.STDOUT, env=environment())
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"healthbrokerd exited: {log_path.read_text(errors='replace')}", pytrace=False)
            if os.path.exists(admin_socket):
                try:
                    with BrokerAdmin.connect(admin_socket) as admin:
                        admin.ping(timeout=5)
                    break
                except BrokerError:
                    pass
            if time.monotonic() > deadline:
                pytest.fail("healthbrokerd did not start within 30 s", pytrace=False)
            time.sleep(0.05)
        yield UIDaemon(app_socket, admin_socket, folder)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def ui(ui_daemon: UIDaemon) -> Iterator[UIServer]:
    """`healthctl ui` on the test daemon; its first line of output is the page's address."""
    process = subprocess.Popen(
        [str(binary("healthctl", "HEALTHCTL")), "--admin-socket", ui_daemon.admin_socket, "ui"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment())
    try:
        assert process.stdout is not None
        url = process.stdout.readline().decode().strip()
        if not url.startswith("http://127.0.0.1:"):
            process.kill()
            pytest.fail(f"healthctl ui printed {url!r} first; stderr: {process.stderr.read().decode() if process.stderr else ''}",
                        pytrace=False)
        port = int(url.split(":")[2].split("/")[0])
        yield UIServer(url, port, process)
    finally:
        crashed = process.poll()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    assert crashed is None, f"healthctl ui exited with {crashed} during the tests:\n{errors}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = Browser(env=environment())
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def page(browser: Browser, ui: UIServer) -> Iterator[Page]:
    tab = browser.new_page(ui.url)
    tab.wait_for("document.getElementById('connection').textContent.startsWith('connected')")
    yield tab
    browser.send("Target.closeTarget", {"targetId": tab.send("Target.getTargetInfo")["targetInfo"]["targetId"]})


@pytest.fixture
def admin(ui_daemon: UIDaemon) -> Iterator[BrokerAdmin]:
    with BrokerAdmin.connect(ui_daemon.admin_socket) as connection:
        yield connection


_numbers = itertools.count(1)


@pytest.fixture
def register(admin: BrokerAdmin) -> Callable[..., App]:
    def register_app(name: str) -> App:
        # Each module has a daemon of its own; the number keeps a name used twice apart.
        app_id = f"com.example.{name.lower().replace(' ', '-')}-{next(_numbers)}"
        token = admin.add_app(app_id, name=name, read_usage="Shows your daily steps and heart rate next to your runs.",
                              share_usage="Saves the runs you record.")
        return App(app_id, token, name)
    return register_app


@pytest.fixture
def connect(ui_daemon: UIDaemon) -> Iterator[Callable[[App], HealthStore]]:
    stores = []

    def open_store(app: App) -> HealthStore:
        store = HealthStore.connect(app.app_id, app.token, ui_daemon.app_socket)
        stores.append(store)
        return store

    yield open_store
    for store in stores:
        store.close()
