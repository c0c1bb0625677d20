"""examples/steps.py runs against the daemon and prints daily totals clamped to a limited grant."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Callable

from healthbroker import STEP_COUNT, HealthStore, Quantity, ReadDecision, Sample

from conftest import App, Daemon, grant
from test_samples import day_start, writer

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "steps.py"


def test_steps_example(daemon: Daemon, register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    owner = writer(register, connect, "example-writer")
    owner.save([Sample(STEP_COUNT, day_start(d) + timedelta(hours=12), day_start(d) + timedelta(hours=13),
                       Quantity(1000, "count")) for d in range(1, 21)])
    reader = register("example-reader", grant(read=ReadDecision.LIMITED, limited_from=day_start(5)))
    run = subprocess.run([sys.executable, str(EXAMPLE), "--app-id", reader.app_id, "--token", reader.token,
                          "--socket", daemon.app_socket], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    days = [line.split()[0] for line in lines if line.startswith("  ")]
    # Day 5 ago is the first day it may read; days 5 to 1 ago each hold at least the writer's 1,000.
    assert days[0] == f"{day_start(5):%Y-%m-%d}"
    for day in range(5, 0, -1):
        line = next(line for line in lines if line.startswith(f"  {day_start(day):%Y-%m-%d}"))
        assert int(line.split()[1].replace(",", "")) >= 1000
    assert "unknown to it, not absent" in lines[-1]
