"""`healthctl ui`: a type's source order on the Data types page, saved through the page and used by statistics."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, List
from zoneinfo import ZoneInfo

from ui_support import TIME_ZONE, App, binary, environment, screenshot

STEPS = "HKQuantityTypeIdentifierStepCount"


def js(value: object) -> str:
    return json.dumps(value)


def utc(instant: datetime) -> str:
    return instant.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def healthctl(ui, *arguments: str) -> str:
    socket = ui.process.args[ui.process.args.index("--admin-socket") + 1]
    done = subprocess.run([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", socket, *arguments],
                          capture_output=True, env=environment(), text=True)
    assert done.returncode == 0, f"healthctl {' '.join(arguments)}: {done.stderr}"
    return done.stdout


def import_steps(ui, app: App, folder: Path, pieces: List[tuple]) -> None:
    """Imports step samples (start, minutes, count) as `app`, as a phone or watch would have saved them."""
    lines = folder / f"{app.app_id}.jsonl"
    lines.write_text("".join(json.dumps({
        "type": "stepCount", "start": utc(start), "end": utc(start + timedelta(minutes=minutes)),
        "value": count, "unit": "count"}) + "\n" for start, minutes, count in pieces))
    healthctl(ui, "import", str(lines), "--app", app.app_id)


def total_steps(ui, first: datetime, end: datetime) -> float:
    reply = json.loads(healthctl(ui, "--json", "stats", "stepCount", "--from", utc(first), "--to", utc(end)))
    assert len(reply["buckets"]) == 1, reply
    return reply["buckets"][0]["sum"]


def shown_order(page) -> List[str]:
    return page.evaluate("[...document.querySelectorAll('#page-types .source-order[data-type=stepCount] li')].map(li => li.dataset.app)")


def test_putting_the_phone_first_on_the_page_makes_statistics_count_the_phone(page, ui, register: Callable[..., App],
                                                                            tmp_path: Path) -> None:
    phone, watch = register("Phone"), register("Watch")
    zone = ZoneInfo(TIME_ZONE)
    walk = datetime.now(zone).replace(hour=9, minute=0, second=0, microsecond=0) - timedelta(days=1)
    # One walk counted by both: the phone says 5000 steps for the hour, the watch 3000 + 1800.
    import_steps(ui, phone, tmp_path, [(walk, 60, 5000)])
    import_steps(ui, watch, tmp_path, [(walk, 30, 3000), (walk + timedelta(minutes=30), 30, 1800)])
    first, end = walk - timedelta(hours=1), walk + timedelta(hours=2)

    # The person put the watch first in the terminal; statistics count the watch.
    healthctl(ui, "sources", "priority", "stepCount", watch.app_id, phone.app_id)
    assert total_steps(ui, first, end) == 4800

    page.evaluate("document.querySelector('.tab[data-tab=types]').click()")
    section = "#page-types .source-order[data-type=stepCount]"
    page.wait_for(f"document.querySelectorAll('{section} li').length === 2",
                  explain="document.getElementById('page-types').innerText")
    assert shown_order(page) == [watch.app_id, phone.app_id]
    assert page.evaluate(f"document.querySelector('{section}').dataset.custom") == "yes"
    text = page.evaluate(f"document.querySelector('{section}').innerText")
    assert "When two sources count the same steps, the one higher in this list is used" in text
    assert page.evaluate(f"document.querySelector('{section} li[data-app={js(watch.app_id)}] .move-up').disabled")

    # Move the phone up: saved at once, the page redrawn from the broker.
    page.evaluate(f"document.querySelector('{section} li[data-app={js(phone.app_id)}] .move-up').click()")
    page.wait_for(f"[...document.querySelectorAll('{section} li')].map(li => li.dataset.app).join() === {js(phone.app_id + ',' + watch.app_id)}",
                  explain=f"document.querySelector('{section}').innerText")
    page.wait_for(f"document.querySelector('{section} .saved').textContent.includes('Phone now counts first')",
                  explain=f"document.querySelector('{section}').innerText")
    listed = healthctl(ui, "sources", "priority", "stepCount")
    assert listed.index(f"1. {phone.app_id}") < listed.index(f"2. {watch.app_id}"), listed
    assert json.loads(healthctl(ui, "--json", "sources", "priority", "stepCount"))["app_ids"] == [phone.app_id, watch.app_id]
    assert total_steps(ui, first, end) == 5000
    # The Data page's chart shows the merged figure too.
    page.evaluate("document.querySelector('.tab[data-tab=data]').click()")
    day = walk.date().isoformat()
    page.wait_for(f"document.querySelector('#page-data .chart-card[data-type=stepCount] rect.bar[data-day={js(day)}]') !== null",
                  explain="document.getElementById('page-data').innerText")
    assert page.evaluate(f"Number(document.querySelector('#page-data .chart-card[data-type=stepCount] rect.bar[data-day={js(day)}]').dataset.value)") == 5000
    page.evaluate("document.querySelector('.tab[data-tab=types]').click()")
    page.wait_for(f"document.querySelectorAll('{section} li').length === 2")
    screenshot(page, "ui-sources.png")

    # Reset: no order is held, and the default (by app id: com.example.phone-… before com.example.watch-…) shows.
    page.evaluate(f"document.querySelector('{section} .reset-order').click()")
    page.wait_for(f"document.querySelector('{section}')?.dataset.custom === 'no'",
                  explain=f"document.querySelector('{section}')?.innerText")
    assert "no source order set" in healthctl(ui, "sources", "priority", "stepCount")
    assert shown_order(page) == sorted([phone.app_id, watch.app_id])
    assert page.evaluate(f"document.querySelector('{section} .reset-order').disabled")


def test_a_type_with_one_source_has_no_order_and_changes_need_the_pages_origin(page, ui, register: Callable[..., App],
                                                                               tmp_path: Path) -> None:
    scale, band, ring = register("Scale"), register("Band"), register("Ring")
    walk = datetime(2026, 1, 2, 8, 0, tzinfo=timezone.utc)
    import_steps(ui, band, tmp_path, [(walk, 20, 2000)])
    import_steps(ui, ring, tmp_path, [(walk, 20, 1900)])
    lines = tmp_path / "weights.jsonl"
    lines.write_text(json.dumps({"type": "bodyMass", "start": "2026-01-02T07:00:00Z", "value": 70.5, "unit": "kg"}) + "\n")
    healthctl(ui, "import", str(lines), "--app", scale.app_id)
    reply = page.evaluate("fetch('api/sources').then(r => r.json())")
    assert all(order["type"]["alias"] != "bodyMass" for order in reply["orders"])
    # The scale has samples, but no steps: the steps order lists the band and the ring (and any app of
    # another test in this module), never the scale.
    steps = [order for order in reply["orders"] if order["type"]["alias"] == "stepCount"]
    assert len(steps) == 1
    listed = [source["appID"] for source in steps[0]["sources"]]
    assert band.app_id in listed and ring.app_id in listed and scale.app_id not in listed

    # The same checks as every other change: no Origin (another program) is refused before anything is stored.
    import urllib.request
    request = urllib.request.Request(ui.url + "api/priority", method="POST", data=json.dumps({"type": "stepCount", "reset": True}).encode(),
                                     headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a change without an Origin was accepted")
    except urllib.error.HTTPError as error:
        assert error.code == 403
    # A malformed order is refused with a message, and nothing changes.
    status = page.evaluate("fetch('api/priority', { method: 'POST', headers: { 'content-type': 'application/json' }, "
                           "body: JSON.stringify({ type: 'stepCount', apps: ['a', 'a'] }) }).then(async r => [r.status, (await r.json()).error])")
    assert status == [400, "a is listed twice"]
