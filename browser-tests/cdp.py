"""A small Chrome DevTools Protocol client: starts a headless Chromium and drives pages over its
WebSocket (Debian's python3-websocket), with flattened sessions on the browser's one connection."""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Optional

import websocket


def chromium_path() -> str:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)  # type: ignore[return-value]
    raise RuntimeError("no chromium on PATH: install Debian's chromium (scripts/install-deps.sh) or set CHROMIUM")


class CDPError(RuntimeError):
    pass


class Browser:
    """A headless Chromium with its own profile folder; `close()` ends it and removes the folder."""

    def __init__(self, env: Optional[Dict[str, str]] = None) -> None:
        self.profile = tempfile.mkdtemp(prefix="hb-chromium-")
        args = [chromium_path(), "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
                "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={self.profile}",
                "--window-size=1100,900", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port, path = port_file.read_text().splitlines()[:2]
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=30, suppress_origin=True)
        self._ids = itertools.count(1)

    def send(self, method: str, params: Optional[Dict[str, Any]] = None, session: Optional[str] = None,
             timeout: float = 30) -> Dict[str, Any]:
        message_id = next(self._ids)
        message: Dict[str, Any] = {"id": message_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == message_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
        raise CDPError(f"{method}: no reply within {timeout} s")

    def new_page(self, url: str) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.goto(url)
        return page

    def close(self) -> None:
        try:
            if getattr(self, "ws", None):
                self.ws.close()
        finally:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab: evaluate script, wait for conditions, take screenshots."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        return self.browser.send(method, params, session=self.session)

    def goto(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'")

    def evaluate(self, expression: str) -> Any:
        """The value of `expression` (awaited when it is a promise); a thrown exception raises CDPError."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(f"{expression!r} threw: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait_for(self, condition: str, timeout: float = 15, explain: str = "") -> Any:
        """Polls `condition` (a script expression) until it is truthy; returns its value. On timeout
        the assertion shows the value of `explain` (a script expression), if given."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            try:
                last = self.evaluate(condition)
            except CDPError:
                last = None
            if last:
                return last
            time.sleep(0.05)
        shown = ""
        if explain:
            try:
                shown = f"; {explain} = {self.evaluate(explain)!r}"
            except CDPError as error:
                shown = f"; {explain} threw {error}"
        raise AssertionError(f"timed out after {timeout} s waiting for: {condition} (last value {last!r}){shown}")

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
