"""Checks that need no daemon: the hand-written enums against the generated module, and time conversion."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from healthbroker import DomainCode, Quantity, Sample, StatusCode, STEP_COUNT
from healthbroker import healthbroker_pb2 as pb
from healthbroker._time import from_micros, to_micros
from healthbroker.model import AuthorizationStatus, Interval, RequestStatus, SortKey


def test_enums_match_the_proto() -> None:
    """The Python enums mirror the .proto; a renumbered or added value must show up here."""
    assert {m.name: m.value for m in StatusCode} == {v.name: v.number for v in pb.StatusCode.DESCRIPTOR.values}
    assert {m.name: m.value for m in DomainCode} == {
        v.name.removeprefix("DOMAIN_"): v.number for v in pb.DomainCode.DESCRIPTOR.values}
    assert {m.name: m.value for m in AuthorizationStatus} == {
        v.name.removeprefix("AUTHORIZATION_"): v.number for v in pb.AuthorizationStatus.DESCRIPTOR.values}
    assert {m.name: m.value for m in RequestStatus} == {
        v.name.removeprefix("REQUEST_STATUS_"): v.number for v in pb.RequestStatus.DESCRIPTOR.values}
    assert {m.name: m.value for m in Interval} == {
        v.name.removeprefix("INTERVAL_"): v.number for v in pb.StatisticsInterval.DESCRIPTOR.values}
    assert {m.name: m.value for m in SortKey} == {
        v.name.removeprefix("SORT_BY_"): v.number for v in pb.SortKey.DESCRIPTOR.values}


def test_time_is_exact_microseconds_utc() -> None:
    when = datetime(2026, 3, 29, 1, 30, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    micros = to_micros(when)
    assert micros == 1774740600123456
    assert from_micros(micros) == when and from_micros(micros).tzinfo == timezone.utc
    assert to_micros(from_micros(-1)) == -1


def test_naive_datetime_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        to_micros(datetime(2026, 1, 1))


def test_sample_wire_round_trip() -> None:
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    sample = Sample(STEP_COUNT, start, start + timedelta(minutes=1), Quantity(12, "count"), metadata={"k": "v"})
    assert Sample.from_proto(sample.to_proto()) == sample
    assert Sample.from_dict({"type": STEP_COUNT, "start": start, "end": start, "quantity": (3, "count"),
                             "uuid": sample.uuid}).value == Quantity(3, "count")
