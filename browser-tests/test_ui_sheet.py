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
from healthbroker._time import to_micros

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
    asking = Asking(store, share=[STEPS, ENERGY], read=[STEPS, HEART, SLEEP, WEIGHT, BIRTH], timeout=600)
    page.wait_for("!document.getElementById('backdrop').hidden && document.querySelectorAll('#sheet .typerow').length === 6")
    sheet_text = page.evaluate("document.getElementById('sheet').innerText")
    assert "Morning Run" in sheet_text and "Shows your daily steps" in sheet_text and "Saves the runs" in sheet_text
    assert "Waits for your answer until " in sheet_text and " min left)." in sheet_text, sheet_text
    # Behind the sheet the Apps page already lists the app that asks.
    page.wait_for(f"!!document.querySelector('#page-apps .app[data-app={js(app.app_id)}]')",
                  explain="document.getElementById('page-apps').innerText")
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


def prompt_of(admin: BrokerAdmin, app: App, seconds: float = 10):
    """The prompt `app` raised, as the broker's prompt stream carries it."""
    deadline = datetime.now() + timedelta(seconds=seconds)
    watch = admin.watch_prompts()
    try:
        for event in watch:
            if getattr(event, "app_id", None) == app.app_id:
                return event
            assert datetime.now() < deadline, "no prompt"
    finally:
        watch.close()


def test_sheet_shows_the_apps_deadline_in_local_time_and_counts_down(page, register: Callable[..., App], connect,
                                                                      admin: BrokerAdmin) -> None:
    app = register("Timed App")
    store = connect(app)
    before = datetime.now(ZoneInfo(TIME_ZONE))
    asking = Asking(store, share=[], read=[STEPS], timeout=100.0)
    prompt = prompt_of(admin, app)
    after = datetime.now(ZoneInfo(TIME_ZONE))
    assert prompt.deadline is not None
    assert before + timedelta(seconds=100) <= prompt.deadline <= after + timedelta(seconds=100), (before, prompt.deadline)
    page.wait_for(f"document.getElementById('sheet').dataset.prompt === {js(str(prompt.prompt_id))} && "
                  "document.getElementById('sheet-deadline')?.textContent.startsWith('Waits')")
    shown = page.evaluate("document.getElementById('sheet-deadline').textContent")
    local = prompt.deadline.astimezone(ZoneInfo(TIME_ZONE))   # the browser runs in TZ too
    assert shown.startswith(f"Waits for your answer until {local:%H:%M} ("), shown
    assert shown.endswith(" s left)."), shown   # under two minutes: counted in seconds
    assert int(page.evaluate("document.getElementById('sheet-deadline').dataset.deadline")) == to_micros(prompt.deadline) // 1000
    # The countdown moves on by itself.
    page.wait_for(f"document.getElementById('sheet-deadline').textContent !== {js(shown)}", timeout=4)
    page.evaluate("document.getElementById('sheet-cancel').click()")
    asking.wait()
    assert isinstance(asking.error, BrokerError) and asking.error.code == StatusCode.CANCELLED, asking.error
    page.wait_for("document.getElementById('backdrop').hidden")

    # An app that sets no deadline: the sheet says there is no time limit.
    patient = Asking(store, share=[], read=[HEART])
    untimed = prompt_of(admin, app)
    assert untimed.deadline is None
    page.wait_for(f"document.getElementById('sheet').dataset.prompt === {js(str(untimed.prompt_id))} && "
                  "!!document.getElementById('sheet-deadline')?.textContent")
    assert page.evaluate("document.getElementById('sheet-deadline').textContent") == "No time limit: the app waits until you answer."
    page.evaluate("document.getElementById('sheet-cancel').click()")
    patient.wait()
    page.wait_for("document.getElementById('backdrop').hidden")


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


def test_charts_show_what_a_statistics_call_returns(page, register: Callable[..., App], connect) -> None:
    from healthbroker import Interval, Quantity, Sample, StatisticsOptions
    app = register("Pedometer")
    store = connect(app)
    asking = Asking(store, share=[STEPS, HEART], read=[STEPS, HEART])
    page.wait_for("document.querySelectorAll('#sheet .typerow').length === 2")
    page.evaluate("document.getElementById('sheet-all-on').click()")
    page.evaluate("document.getElementById('sheet-submit').click()")
    asking.wait()
    assert asking.error is None, asking.error
    today = local_today()
    samples = []
    for back, counts in [(2, [1200, 800]), (1, [4000]), (0, [350, 650, 1000])]:
        day = local_midnight(today - timedelta(days=back))
        for hour, count in enumerate(counts):
            start = day + timedelta(hours=8 + hour)
            samples.append(Sample(STEPS, start, start + timedelta(minutes=10), Quantity(count, "count")))
    yesterday = local_midnight(today - timedelta(days=1))
    for minute, bpm in enumerate([62, 118, 80]):
        at = yesterday + timedelta(hours=12, minutes=minute)
        samples.append(Sample(HEART, at, at, Quantity(bpm, "count/min")))
    store.save(samples)

    first = local_midnight(today - timedelta(days=29))
    end = local_midnight(today + timedelta(days=1))
    steps = store.statistics(STEPS, start=first, end=end, options=StatisticsOptions.SUM, interval=Interval.DAY, anchor=first,
                             time_zone=TIME_ZONE)
    expected_steps = {b.start.astimezone(ZoneInfo(TIME_ZONE)).date().isoformat(): b.sum for b in steps.buckets}
    assert sorted(expected_steps.values()) == [2000, 2000, 4000]
    heart = store.statistics(HEART, start=first, end=end, options=StatisticsOptions.AVERAGE | StatisticsOptions.MINIMUM |
                             StatisticsOptions.MAXIMUM, interval=Interval.DAY, anchor=first, time_zone=TIME_ZONE)

    page.evaluate("document.querySelector('.tab[data-tab=data]').click()")
    page.wait_for("document.querySelectorAll('#page-data .chart-card[data-type=stepCount] rect.bar').length === 3",
                  explain="document.getElementById('page-data').innerText")
    shown = page.evaluate("Object.fromEntries([...document.querySelectorAll('#page-data .chart-card[data-type=stepCount] rect.bar')]"
                          ".map(r => [r.dataset.day, Number(r.dataset.value)]))")
    assert shown == expected_steps
    ranges = page.evaluate("[...document.querySelectorAll('#page-data .chart-card[data-type=heartRate] line.range')]"
                           ".map(l => [l.dataset.day, Number(l.dataset.min), Number(l.dataset.max)])")
    averages = page.evaluate("[...document.querySelectorAll('#page-data .chart-card[data-type=heartRate] circle.avg')]"
                             ".map(c => Number(c.dataset.value))")
    assert [[b.start.astimezone(ZoneInfo(TIME_ZONE)).date().isoformat(), b.minimum, b.maximum] for b in heart.buckets] == ranges
    assert [b.average for b in heart.buckets] == averages == [pytest.approx(260 / 3)]
    screenshot(page, "ui-data.png")

    # The history names the calls, one row each, and never a value.
    page.evaluate("document.querySelector('.tab[data-tab=history]').click()")
    page.wait_for(f"[...document.querySelectorAll('#page-history tr')].some(r => r.innerText.includes('Pedometer') && r.innerText.includes('Statistics'))",
                  explain="document.getElementById('page-history').innerText")
    history = page.evaluate("document.getElementById('page-history').innerText")
    assert "Save" in history and "4000" not in history and "118" not in history


def test_an_app_that_only_wrote_is_listed_with_its_samples(page, ui, register: Callable[..., App], tmp_path) -> None:
    import subprocess

    from ui_support import binary, environment
    app = register("Old Scale")
    lines = tmp_path / "weights.jsonl"
    lines.write_text("".join(
        json.dumps({"type": "bodyMass", "start": f"2026-01-0{day}T07:00:00Z", "value": 70 + day / 10, "unit": "kg"}) + "\n"
        for day in range(1, 6)))
    socket = ui.process.args[ui.process.args.index("--admin-socket") + 1]
    subprocess.run([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", socket, "import", str(lines), "--app", app.app_id],
                   check=True, capture_output=True, env=environment())
    page.evaluate("document.querySelector('.tab[data-tab=apps]').click()")
    card = f"#page-apps .app[data-app={js(app.app_id)}]"
    page.wait_for(f"document.querySelector('{card}')?.innerText.includes('wrote 5 samples')",
                  explain="document.getElementById('page-apps').innerText")
    assert "asked" not in page.evaluate(f"[...document.querySelectorAll('{card} .badge')].map(b => b.textContent).join()")


def test_the_page_loads_nothing_from_elsewhere(page, ui) -> None:
    """Everything the page uses comes from healthctl itself (it works offline): no third-party asset."""
    origin = f"http://127.0.0.1:{ui.port}/"
    loaded = page.evaluate("[location.href, ...performance.getEntriesByType('resource').map(e => e.name)]")
    assert len(loaded) >= 3, loaded   # the page, its script and its style at least
    assert all(url.startswith(origin) for url in loaded), loaded
    linked = page.evaluate("[...document.querySelectorAll('[src], [href]')].map(n => n.src || n.href)")
    assert all(url.startswith(origin) for url in linked), linked


def test_an_app_denied_everything_and_removed_stays_listed(page, register: Callable[..., App], connect,
                                                            admin: BrokerAdmin) -> None:
    app = register("Nosy App")
    store = connect(app)
    asking = Asking(store, share=[], read=[HEART, SLEEP])
    prompt = prompt_of(admin, app)
    admin.answer_prompt(prompt.prompt_id, [TypeDecision(HEART, read=ReadDecision.DENY),
                                           TypeDecision(SLEEP, read=ReadDecision.DENY)])
    asking.wait()
    assert asking.error is None, asking.error
    admin.remove_app(app.app_id)
    page.evaluate("document.querySelector('.tab[data-tab=apps]').click()")
    card = f"#page-apps .app[data-app={js(app.app_id)}]"
    page.wait_for(f"document.querySelector('{card}')?.innerText.includes('removed')",
                  explain="document.getElementById('page-apps').innerText")
    badges = page.evaluate(f"[...document.querySelectorAll('{card} .badge')].map(b => b.textContent)")
    assert badges == ["removed", "asked"], badges
    assert app.name in page.evaluate(f"document.querySelector('{card}').innerText")
