"""`healthctl ui` in a real headless Chromium: the sheet, the Apps page, prompts leaving the page."""

from __future__ import annotations

import json
import threading
from datetime import date, datetime, timedelta
from typing import Callable, List, Optional
from zoneinfo import ZoneInfo

import pytest

from ui_support import TIME_ZONE, App, screenshot
from healthbroker import (BrokerAdmin, BrokerError, HealthStore, ReadDecision, RequestStatus, ShareDecision,
                          StatusCode, TypeDecision)

STEPS = "HKQuantityTypeIdentifierStepCount"
HEART = "HKQuantityTypeIdentifierHeartRate"
ENERGY = "HKQuantityTypeIdentifierActiveEnergyBurned"
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
WEIGHT = "HKQuantityTypeIdentifierBodyMass"
BIRTH = "HKCharacteristicTypeIdentifierDateOfBirth"


def local_today() -> date:
    return datetime.now(ZoneInfo(TIME_ZONE)).date()


def words(day: date) -> str:
    """How the page writes a day: `Tue 17 Nov 2026`."""
    return f"{['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][day.weekday()]} {day.day} {day.strftime('%b')} {day.year}"


def local_midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(TIME_ZONE))


class Asking:
    """An app's request_authorization running on a thread of its own (it waits for the person)."""

    def __init__(self, store: HealthStore, share: List[str], read: List[str], timeout: Optional[float] = None) -> None:
        self.error: Optional[BaseException] = None
        self.done = threading.Event()

        def run() -> None:
            try:
                store.request_authorization(share=share, read=read, timeout=timeout)
            except BaseException as error:  # noqa: BLE001 (reported to the test)
                self.error = error
            finally:
                self.done.set()

        threading.Thread(target=run, daemon=True).start()

    def wait(self, seconds: float = 15) -> None:
        assert self.done.wait(seconds), "request_authorization did not return"


def js(value: object) -> str:
    return json.dumps(value)


def choose(page, selector: str, value: str) -> None:
    """Sets a select or date input in the page as the person would, firing its input and change events."""
    page.evaluate(f"""(() => {{
        const node = document.querySelector({js(selector)});
        if (!node) throw new Error('no ' + {js(selector)});
        node.value = {js(value)};
        node.dispatchEvent(new Event('input', {{ bubbles: true }}));
        node.dispatchEvent(new Event('change', {{ bubbles: true }}));
        return node.value;
    }})()""")


def sheet_prompt(page) -> Optional[str]:
    return page.evaluate("document.getElementById('backdrop').hidden ? null : document.getElementById('sheet').dataset.prompt")


def test_sheet_answers_from_a_date_and_full(page, register: Callable[..., App], connect, admin: BrokerAdmin) -> None:
    app = register("Morning Run")
    store = connect(app)
    asking = Asking(store, share=[STEPS, ENERGY], read=[STEPS, HEART, SLEEP, WEIGHT, BIRTH])
    page.wait_for("!document.getElementById('backdrop').hidden && document.querySelectorAll('#sheet .typerow').length === 6")
    sheet_text = page.evaluate("document.getElementById('sheet').innerText")
    assert "Morning Run" in sheet_text and "Shows your daily steps" in sheet_text and "Saves the runs" in sheet_text
    # Plain names, grouped.
    groups = page.evaluate("[...document.querySelectorAll('#sheet .group')].map(g => g.textContent)")
    assert groups == ["Activity", "Heart", "Sleep", "Body measurements", "Characteristics"]
    assert "Steps" in sheet_text and "Heart rate" in sheet_text and "Date of birth" in sheet_text
    # "From a date" is offered for sample types only, not for a characteristic.
    assert page.evaluate("[...document.querySelector('#sheet select.read[data-type=dateOfBirth]').options].map(o => o.value)") == ["deny", "full"]
    assert "from" in page.evaluate("[...document.querySelector('#sheet select.read[data-type=stepCount]').options].map(o => o.value)")

    chosen = local_today() - timedelta(days=14)
    choose(page, "#sheet select.read[data-type=stepCount]", "from")
    # A future date is refused before anything is sent.
    choose(page, "#sheet input.from[data-type=stepCount]", (local_today() + timedelta(days=1)).isoformat())
    assert page.evaluate("document.getElementById('sheet-submit').disabled") is True
    assert "future" in page.evaluate("document.querySelector('#sheet .typerow[data-type=stepCount] .preview').textContent")
    choose(page, "#sheet input.from[data-type=stepCount]", chosen.isoformat())
    preview = page.evaluate("document.querySelector('#sheet .typerow[data-type=stepCount] .preview').textContent")
    weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][chosen.weekday()]
    assert preview == f"This app will see your data from {weekday} {chosen.day} {chosen.strftime('%b')} on — 14 days."
    choose(page, "#sheet select.read[data-type=heartRate]", "full")
    choose(page, "#sheet select.share[data-type=stepCount]", "allow")
    assert page.evaluate("document.getElementById('sheet-submit').disabled") is False
    screenshot(page, "ui-sheet.png")
    page.evaluate("document.getElementById('sheet-submit').click()")

    asking.wait()
    assert asking.error is None, asking.error
    page.wait_for("document.getElementById('backdrop').hidden")
    dates = store.earliest_authorized_sample_date([STEPS, HEART])
    assert dates == {STEPS: local_midnight(chosen)}, dates
    grants = {g.type: g for g in admin.list_grants(app.app_id)}
    assert grants[HEART].read == ReadDecision.FULL
    assert grants[STEPS].share == ShareDecision.ALLOW and grants[STEPS].read == ReadDecision.LIMITED
    assert grants[ENERGY].share == ShareDecision.DENY
    assert grants[BIRTH].read == ReadDecision.DENY and grants[SLEEP].read == ReadDecision.DENY


def test_turn_all_on_and_change_on_the_apps_page(page, register: Callable[..., App], connect, admin: BrokerAdmin) -> None:
    app = register("Step Counter")
    store = connect(app)
    asking = Asking(store, share=[STEPS], read=[STEPS, HEART])
    page.wait_for("document.querySelectorAll('#sheet .typerow').length === 2")
    page.evaluate("document.getElementById('sheet-all-on').click()")
    page.evaluate("document.getElementById('sheet-submit').click()")
    asking.wait()
    assert asking.error is None, asking.error
    assert store.earliest_authorized_sample_date([STEPS, HEART]) == {}

    # The Apps page shows the decisions and changes them directly.
    row = f"#page-apps tr[data-app={js(app.app_id)}][data-type=stepCount]"
    page.wait_for(f"document.querySelector('{row} select.read')?.value === 'full'")
    first = local_today() - timedelta(days=3)
    choose(page, f"{row} select.read", "from")
    choose(page, f"{row} input.from", first.isoformat())
    page.wait_for(f"document.querySelector('{row} .saved')?.textContent.includes({js(words(first))})",
                  explain=f"document.querySelector('#page-apps').innerText")
    # The app's very next call sees the change.
    assert store.earliest_authorized_sample_date([STEPS]) == {STEPS: local_midnight(first)}

    # The page redraws on the change; the next change works on the new rows.
    second = local_today() - timedelta(days=40)
    page.wait_for(f"document.querySelector('{row} input.from')?.value === {js(first.isoformat())}")
    choose(page, f"{row} input.from", second.isoformat())
    page.wait_for(f"document.querySelector('{row} .saved')?.textContent.includes({js(words(second))})")
    assert store.earliest_authorized_sample_date([STEPS]) == {STEPS: local_midnight(second)}
    screenshot(page, "ui-apps.png")

    # Forget: the decision is gone and the app would be asked again.
    page.wait_for(f"document.querySelector('{row} input.from')?.value === {js(second.isoformat())}")
    page.evaluate(f"document.querySelector('{row} button.forget').click()")
    page.wait_for(f"!document.querySelector('{row}')")
    assert store.request_status(share=[STEPS], read=[STEPS]) == RequestStatus.SHOULD_REQUEST
    assert store.earliest_authorized_sample_date([STEPS]) == {}

    # Data types: heart rate's readers include the app.
    page.evaluate("document.querySelector('.tab[data-tab=types]').click()")
    page.wait_for(f"document.querySelector('#page-types .type[data-type=heartRate]')?.innerText.includes({js(app.name)})")
    # … and "Turn off for all apps" denies it to every app that had it.
    page.evaluate("document.querySelector('#page-types .type[data-type=heartRate] button.turn-off').click()")
    page.wait_for("!document.querySelector('#page-types .type[data-type=heartRate] button.turn-off')")
    assert {g.type: g.read for g in admin.list_grants(app.app_id)}[HEART] == ReadDecision.DENY


def test_withdrawn_prompt_leaves_the_page(page, register: Callable[..., App], connect) -> None:
    app = register("Impatient App")
    store = connect(app)
    asking = Asking(store, share=[], read=[HEART], timeout=2.0)
    page.wait_for("!document.getElementById('backdrop').hidden")
    shown = sheet_prompt(page)
    assert shown
    asking.wait()
    assert isinstance(asking.error, BrokerError) and asking.error.code == StatusCode.DEADLINE_EXCEEDED, asking.error
    page.wait_for("document.getElementById('backdrop').hidden", timeout=5)


def test_backlog_shows_and_an_answer_elsewhere_removes_it(browser, ui, register: Callable[..., App], connect,
                                                           admin: BrokerAdmin) -> None:
    app = register("Early Bird")
    store = connect(app)
    asking = Asking(store, share=[], read=[WEIGHT])
    # The prompt is pending before the page opens: the page shows it as soon as it connects.
    deadline = datetime.now() + timedelta(seconds=10)
    prompt_id = None
    watch = admin.watch_prompts()
    try:
        for event in watch:
            if getattr(event, "app_id", None) == app.app_id:
                prompt_id = event.prompt_id
                break
            assert datetime.now() < deadline
    finally:
        watch.close()
    tab = browser.new_page(ui.url)
    tab.wait_for(f"document.getElementById('sheet').dataset.prompt === {js(str(prompt_id))} && !document.getElementById('backdrop').hidden")
    # Another agent answers it: the sheet disappears at once.
    admin.answer_prompt(prompt_id, [TypeDecision(WEIGHT, read=ReadDecision.FULL)])
    tab.wait_for("document.getElementById('backdrop').hidden", timeout=5)
    asking.wait()
    assert asking.error is None
