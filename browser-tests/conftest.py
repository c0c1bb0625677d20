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
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Optional

import pytest

UI_DIR = Path(__file__).resolve().parent
REPO = UI_DIR.parent
CLIENT_DIR = REPO / "clients" / "python"
sys.path.insert(0, str(CLIENT_DIR))
sys.path.insert(0, str(UI_DIR))

from healthbroker import BrokerAdmin, HealthStore  # noqa: E402
from healthbroker.testing import DaemonFailed, running_daemon  # noqa: E402

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
    try:
        with running_daemon(binary("healthbrokerd", "HEALTHBROKERD"), env=environment(), prefix="hb-ui-") as daemon:
            yield UIDaemon(daemon.app_socket, daemon.admin_socket, daemon.folder)
    except DaemonFailed as failure:
        pytest.fail(str(failure), pytrace=False)


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
