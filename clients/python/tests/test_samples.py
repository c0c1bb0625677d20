"""Save, query (clamping, flow control, cancel), delete, anchored queries, statistics, observe."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Callable, List, Tuple

import pytest

from healthbroker import (
    BLOOD_PRESSURE,
    BLOOD_PRESSURE_DIASTOLIC,
    BLOOD_PRESSURE_SYSTOLIC,
    HEART_RATE,
    STEP_COUNT,
    WORKOUT,
    BrokerError,
    Correlation,
    DomainCode,
    HealthStore,
    Interval,
    Quantity,
    QueryOptions,
    ReadDecision,
    Sample,
    ShareDecision,
    SortKey,
    StatisticsOptions,
    StatusCode,
    Workout,
)

from conftest import App, grant

DAY = timedelta(days=1)


def day_start(days_ago: int) -> datetime:
    """Midnight UTC ``days_ago`` days before today."""
    today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    return today - days_ago * DAY


def writer(register: Callable[..., App], connect: Callable[[App], HealthStore], name: str,
           types: Tuple[str, ...] = (STEP_COUNT,)) -> HealthStore:
    """An app allowed to share ``types`` and denied reading them: it reads only what it saved itself,
    so tests sharing the daemon do not see each other's samples."""
    store = connect(register(name, grant(ShareDecision.ALLOW, ReadDecision.DENY)))
    store.request_authorization(share=types, read=types, timeout=10)
    return store


def steps(count: int, first: datetime, every: timedelta, value: float = 10) -> List[Sample]:
    """``count`` one-minute step samples starting at ``first``, ``every`` apart."""
    return [Sample(STEP_COUNT, first + i * every, first + i * every + timedelta(minutes=1), Quantity(value + i, "count"),
                   metadata={"index": str(i)})
            for i in range(count)]


def test_save_then_query_round_trip_clamped_by_a_limited_grant(
        register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    owner = writer(register, connect, "saver")
    # Noon of each of the 20 days before today: all in the past whatever the time of day the test runs.
    saved = steps(20, day_start(20) + timedelta(hours=12), DAY)
    assert tuple(owner.save(saved)) == (20, 0)
    assert tuple(owner.save(saved)) == (0, 20)  # a retry is idempotent

    # The owner reads back exactly what it saved, in start order.
    mine = [s for s in owner.query(STEP_COUNT, day_start(30)) if s.source_app_id == owner.app_id]
    assert [s.uuid for s in mine] == [s.uuid for s in saved]
    first = mine[0]
    assert (first.start, first.end, first.value, dict(first.metadata)) == (
        saved[0].start, saved[0].end, saved[0].value, {"index": "0"})
    assert first.created is not None and first.start.tzinfo == timezone.utc

    # Another app with read limited from 10 days ago (mid-day, between two samples' ends) sees only
    # the samples ending at or after that date, whatever range it asks for.
    limited_from = day_start(10) + timedelta(hours=6)
    reader = connect(register("limited", grant(read=ReadDecision.LIMITED, limited_from=limited_from)))
    reader.request_authorization(read=[STEP_COUNT], timeout=10)
    seen = [s for s in reader.query(STEP_COUNT, day_start(90), datetime.now(timezone.utc))
            if s.source_app_id == owner.app_id]
    expected = [s.uuid for s in saved if s.end >= limited_from]
    assert len(expected) == 10  # the samples of days 10 ago to yesterday
    assert [s.uuid for s in seen] == expected
    # Sorting and limit go through (the owner's view holds only its own samples).
    newest = list(owner.query(STEP_COUNT, day_start(90), None, limit=3, sort=SortKey.END, descending=True))
    assert [s.uuid for s in newest] == [s.uuid for s in saved[::-1][:3]]
    strict = list(owner.query(STEP_COUNT, saved[5].start, saved[8].start, options=QueryOptions.STRICT_START_DATE))
    assert [s.uuid for s in strict] == [s.uuid for s in saved[5:8]]


def test_save_other_values_and_invalid_samples(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "values", (STEP_COUNT, WORKOUT, HEART_RATE))
    start = day_start(2)
    workout = Sample(WORKOUT, start, start + timedelta(minutes=30),
                     Workout("running", timedelta(minutes=30), Quantity(300, "kcal"), Quantity(5, "km")))
    as_dict = {"type": HEART_RATE, "start": start, "end": start, "quantity": (61, "count/min")}
    assert tuple(store.save([workout, as_dict])) == (2, 0)
    [read_back] = list(store.query(WORKOUT, start - DAY))
    # Read back in the canonical units (km → m).
    assert read_back.value == Workout("running", timedelta(minutes=30), Quantity(300, "kcal"), Quantity(5000, "m"))
    with pytest.raises(BrokerError) as invalid:
        store.save([Sample(STEP_COUNT, start, start, Quantity(1, "count"), uuid="not-a-uuid")])
    assert invalid.value.code == StatusCode.INVALID_ARGUMENT and "samples[0]" in invalid.value.message
    with pytest.raises(ValueError):
        store.save([Sample(STEP_COUNT, datetime(2026, 1, 1), datetime(2026, 1, 1), Quantity(1, "count"))])


def test_a_blood_pressure_correlation_round_trips(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    members = (BLOOD_PRESSURE_SYSTOLIC, BLOOD_PRESSURE_DIASTOLIC)
    store = writer(register, connect, "cuff", members)
    at = day_start(1) + timedelta(hours=8)
    end = at + timedelta(minutes=1)
    systolic = Sample(BLOOD_PRESSURE_SYSTOLIC, at, end, Quantity(121, "mmHg"))
    diastolic = Sample(BLOOD_PRESSURE_DIASTOLIC, at, end, Quantity(79, "mmHg"))
    reading = Sample(BLOOD_PRESSURE, at, end, Correlation([systolic, diastolic]), metadata={"cuff": "left"})
    assert tuple(store.save([reading])) == (3, 0)
    assert tuple(store.save([reading])) == (0, 3)
    [read_back] = list(store.query(BLOOD_PRESSURE, day_start(2)))
    assert read_back.uuid == reading.uuid and dict(read_back.metadata) == {"cuff": "left"}
    assert isinstance(read_back.value, Correlation)
    assert [(m.uuid, m.type, m.value) for m in read_back.value.objects] == [
        (systolic.uuid, BLOOD_PRESSURE_SYSTOLIC, Quantity(121, "mmHg")), (diastolic.uuid, BLOOD_PRESSURE_DIASTOLIC, Quantity(79, "mmHg"))]
    # An anchored query of the correlation type: the reading, then its deletion.
    added, deleted, anchor = store.anchored_query(BLOOD_PRESSURE)
    assert [s.uuid for s in added] == [reading.uuid] and list(deleted) == []
    assert isinstance(added[0].value, Correlation) and len(added[0].value.objects) == 2
    # Members are samples of their own types; deleting the correlation keeps them.
    assert [s.uuid for s in store.query(BLOOD_PRESSURE_SYSTOLIC, day_start(2))] == [systolic.uuid]
    assert store.delete([reading.uuid]) == 1
    added, deleted, _ = store.anchored_query(BLOOD_PRESSURE, anchor)
    assert list(added) == [] and [d.uuid for d in deleted] == [reading.uuid]
    assert list(store.query(BLOOD_PRESSURE, day_start(2))) == []
    assert [s.uuid for s in store.query(BLOOD_PRESSURE_DIASTOLIC, day_start(2))] == [diastolic.uuid]
    with pytest.raises(BrokerError) as invalid:
        store.save([Sample(BLOOD_PRESSURE, at, end, Correlation([Sample(BLOOD_PRESSURE_SYSTOLIC, at, end, Quantity(120, "mmHg"))]))])
    assert invalid.value.code == StatusCode.INVALID_ARGUMENT and "one systolic and one diastolic" in invalid.value.message


def test_a_query_longer_than_its_credit_completes(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "credit")
    store.save(steps(300, day_start(3), timedelta(minutes=5)))
    # One sample per page and a window of 4 pages: 300 pages need credit given back 150 times. Without
    # it the broker would stop after 4 pages, and the deadline would end the test instead of hanging.
    query = store.query(STEP_COUNT, day_start(3), page_size=1, window=4, timeout=20)
    assert len(list(query)) == 300
    assert query.credits_sent >= 148
    # Past the broker's largest window (4,096 items): credit must go back before 4,096 are taken.
    assert sum(1 for _ in store.ping_stream(5000, timeout=20)) == 5000


def test_closing_a_query_early_cancels_it(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "early")
    store.save(steps(50, day_start(1), timedelta(minutes=5)))
    with store.query(STEP_COUNT, day_start(1), page_size=1, window=2) as query:
        taken = [next(query) for _ in range(3)]
        assert store.connection.calls_in_flight == 1
    assert len(taken) == 3
    # The broker, waiting for credit, would keep the call forever; the Cancel ends it (CANCELLED).
    deadline = time.monotonic() + 5
    while store.connection.calls_in_flight and time.monotonic() < deadline:
        time.sleep(0.01)
    assert store.connection.calls_in_flight == 0
    assert store.ping(b"still here") == b"still here"
    # A for loop left with break, then close(): the same, and the next query sees every sample.
    query = store.query(STEP_COUNT, day_start(1), page_size=1, window=2)
    for _ in query:
        break
    query.close()
    assert len(list(store.query(STEP_COUNT, day_start(1)))) == 50


def test_anchored_query_reports_deletions(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "anchored")
    saved = steps(6, day_start(2), timedelta(hours=1))
    store.save(saved)
    added, deleted, anchor = store.anchored_query(STEP_COUNT)
    assert {s.uuid for s in added} >= {s.uuid for s in saved} and deleted == [] and anchor
    # Nothing changed: nothing new, and the same anchor.
    assert store.anchored_query(STEP_COUNT, anchor) == ([], [], anchor)

    assert store.delete([saved[0].uuid, saved[1].uuid, "00000000-0000-0000-0000-000000000000"]) == 2
    later = steps(1, day_start(0), timedelta(hours=1), value=99)
    store.save(later)
    added, deleted, next_anchor = store.anchored_query(STEP_COUNT, anchor)
    assert [s.uuid for s in added] == [later[0].uuid]
    assert sorted(deleted) == sorted((s.uuid, store.app_id) for s in saved[:2])
    assert next_anchor != anchor
    # Delete by type and date range.
    assert store.delete(type=STEP_COUNT, start=saved[2].start, end=saved[4].start,
                        options=QueryOptions.STRICT_START_DATE) == 2
    assert {d.uuid for d in store.anchored_query(STEP_COUNT, next_anchor).deleted} == {saved[2].uuid, saved[3].uuid}


def test_statistics(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "stats", (STEP_COUNT, HEART_RATE))
    # Days 3, 2 and 1 ago: 4 samples a day of 100, 200, 300 steps each.
    for days_ago, value in ((3, 100), (2, 200), (1, 300)):
        store.save([Sample(STEP_COUNT, day_start(days_ago) + timedelta(hours=h), day_start(days_ago) + timedelta(hours=h, minutes=1),
                           Quantity(value, "count")) for h in (1, 5, 9, 23)])
    daily = store.statistics(STEP_COUNT, day_start(3), day_start(0), interval=Interval.DAY, anchor=day_start(0))
    assert daily.unit == "count"
    assert [(b.start, b.sum, b.sample_count) for b in daily.buckets] == [
        (day_start(3), 400.0, 4), (day_start(2), 800.0, 4), (day_start(1), 1200.0, 4)]
    total = store.statistics(STEP_COUNT, day_start(3), day_start(0))
    assert [b.sum for b in total.buckets] == [2400.0]

    store.save([Sample(HEART_RATE, day_start(1) + timedelta(minutes=m), day_start(1) + timedelta(minutes=m),
                       Quantity(bpm, "count/min")) for m, bpm in ((0, 60), (1, 90), (2, 120))])
    heart = store.statistics(HEART_RATE, day_start(1), day_start(0),
                             options=StatisticsOptions.AVERAGE | StatisticsOptions.MINIMUM | StatisticsOptions.MAXIMUM)
    [bucket] = heart.buckets
    assert (bucket.average, bucket.minimum, bucket.maximum, bucket.sum) == (90.0, 60.0, 120.0, None)
    with pytest.raises(BrokerError) as empty:
        store.statistics(STEP_COUNT, day_start(400), day_start(399))
    assert (empty.value.code, empty.value.domain) == (StatusCode.NOT_FOUND, DomainCode.NO_DATA)


def test_observe_reports_changes(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = writer(register, connect, "observer")
    events = store.observe([STEP_COUNT], timeout=10)
    # Give the broker the Observe call before saving (calls on one connection are read in order).
    store.ping()
    saver = threading.Thread(target=lambda: store.save(steps(1, day_start(0), timedelta(minutes=1))))
    saver.start()
    event = next(events)
    events.close()
    saver.join(5)
    assert event.type == STEP_COUNT and event.changed.tzinfo == timezone.utc
    assert store.ping(b"after observe") == b"after observe"
