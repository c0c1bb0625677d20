"""The page outlives the broker: when the daemon stops, the page says so; when it is back, the page's
agent watches again and a new request shows up (and the page's calls work again)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from healthbroker import BrokerAdmin, BrokerError, HealthStore
from ui_support import binary, environment

HEART = "HKQuantityTypeIdentifierHeartRate"


class Daemon:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.app_socket = str(folder / "app.sock")
        self.admin_socket = str(folder / "admin.sock")
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(binary("healthbrokerd", "HEALTHBROKERD")), "--socket", self.app_socket, "--admin-socket",
             self.admin_socket, "--data-dir", str(self.folder / "data"), "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with BrokerAdmin.connect(self.admin_socket) as admin:
                    admin.ping(timeout=5)
                return
            except (BrokerError, OSError):
                time.sleep(0.05)
        raise AssertionError("healthbrokerd did not start")

    def stop(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=15)


def test_the_page_follows_the_broker_away_and_back(browser) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hb-ui-re-"))
    daemon = Daemon(folder)
    daemon.start()
    ui = subprocess.Popen([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", daemon.admin_socket, "ui"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment())
    try:
        assert ui.stdout is not None
        url = ui.stdout.readline().decode().strip()
        with BrokerAdmin.connect(daemon.admin_socket) as admin:
            token = admin.add_app("com.example.comeback", name="Comeback", read_usage="Shows your heart rate.")
        page = browser.new_page(url)
        page.wait_for("document.getElementById('connection').textContent.startsWith('connected')")

        daemon.stop()
        page.wait_for("document.getElementById('connection').textContent.startsWith('broker not reachable')")
        # The page's calls say why they fail rather than hang.
        assert "not reachable" in page.evaluate(
            "fetch('api/apps').then(r => r.json()).then(j => j.error)")

        daemon.start()
        page.wait_for("document.getElementById('connection').textContent.startsWith('connected')", timeout=30)
        store = HealthStore.connect("com.example.comeback", token, daemon.app_socket)
        try:
            failure = []

            def ask() -> None:
                try:
                    store.request_authorization(read=[HEART])
                except BrokerError as error:
                    failure.append(error)

            asking = threading.Thread(target=ask, daemon=True)
            asking.start()
            page.wait_for("!document.getElementById('backdrop').hidden && document.querySelectorAll('#sheet .typerow').length === 1")
            page.evaluate("document.getElementById('sheet-all-on').click()")
            page.evaluate("document.getElementById('sheet-submit').click()")
            asking.join(15)
            assert not asking.is_alive() and not failure, failure
        finally:
            store.close()
        assert json.loads(page.evaluate("fetch('api/apps').then(r => r.text())"))["apps"][0]["grants"][0]["read"] == "full"
    finally:
        ui.terminate()
        ui.wait(timeout=10)
        if daemon.process and daemon.process.poll() is None:
            daemon.stop()
        shutil.rmtree(folder, ignore_errors=True)
