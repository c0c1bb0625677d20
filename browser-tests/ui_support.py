"""What the browser tests share besides fixtures: the time zone, the registered app, screenshots."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import NamedTuple

from cdp import Page

TIME_ZONE = "America/New_York"


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
