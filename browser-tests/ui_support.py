"""What the browser tests share besides fixtures: the time zone, the registered app, screenshots."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest

from cdp import Page

TIME_ZONE = "America/New_York"
REPO = Path(__file__).resolve().parent.parent


def binary(name: str, variable: str) -> Path:
    path = Path(os.environ.get(variable) or REPO / ".build" / "debug" / name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"no {name} at {path}: build it (swift build) or set {variable}", pytrace=False)
    return path


def environment() -> dict:
    env = dict(os.environ)
    env["TZ"] = TIME_ZONE
    return env


class App(NamedTuple):
    app_id: str
    token: str
    name: str


def screenshot(page: Page, name: str) -> None:
    """Keeps a screenshot in $HB_UI_SCREENSHOTS (docs/images) when set; takes it either way, so the
    capture itself is exercised."""
    folder = os.environ.get("HB_UI_SCREENSHOTS")
    target = Path(folder) / name if folder else Path(tempfile.gettempdir()) / f"hb-ui-{os.getpid()}-{name}"
    page.screenshot(target)
    if not folder:
        target.unlink()
