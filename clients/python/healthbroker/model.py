"""The values the Python API speaks: samples, statistics, authorization states, and their wire forms.

Instants are aware ``datetime`` values (UTC when read); on the wire they are int64 microseconds since
the epoch. Types are HealthKit identifier strings (``"HKQuantityTypeIdentifierStepCount"``).
"""

from __future__ import annotations

import uuid as _uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import IntEnum, IntFlag
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from . import healthbroker_pb2 as pb
from ._time import from_micros, to_micros

# A few identifiers, so common calls need no string literals (any catalogued identifier works).
STEP_COUNT = "HKQuantityTypeIdentifierStepCount"
HEART_RATE = "HKQuantityTypeIdentifierHeartRate"
ACTIVE_ENERGY = "HKQuantityTypeIdentifierActiveEnergyBurned"
DISTANCE_WALKING_RUNNING = "HKQuantityTypeIdentifierDistanceWalkingRunning"
SLEEP_ANALYSIS = "HKCategoryTypeIdentifierSleepAnalysis"
WORKOUT = "HKWorkoutTypeIdentifier"
BLOOD_PRESSURE = "HKCorrelationTypeIdentifierBloodPressure"
BLOOD_PRESSURE_SYSTOLIC = "HKQuantityTypeIdentifierBloodPressureSystolic"
BLOOD_PRESSURE_DIASTOLIC = "HKQuantityTypeIdentifierBloodPressureDiastolic"
FOOD = "HKCorrelationTypeIdentifierFood"


class AuthorizationStatus(IntEnum):
    """Share (write) status of one type, as ``HKHealthStore.authorizationStatus(for:)``."""

    NOT_DETERMINED = 0
    SHARING_DENIED = 1
    SHARING_AUTHORIZED = 2


class RequestStatus(IntEnum):
    """Whether asking for a set of types would prompt, as ``HKAuthorizationRequestStatus``."""

    UNKNOWN = 0
    SHOULD_REQUEST = 1
    UNNECESSARY = 2


class QueryOptions(IntFlag):
    """How a date range matches samples (``SamplePredicate.options``).

    NONE: the sample overlaps the range (``end >= start and start < end``); STRICT_START_DATE:
    ``start <= sample.start < end``; STRICT_END_DATE: ``start <= sample.end < end``.
    """

    NONE = 0
    STRICT_START_DATE = 1
    STRICT_END_DATE = 2


class SortKey(IntEnum):
    """Which date a query sorts by."""

    START = 0
    END = 1


class StatisticsOptions(IntFlag):
    """What a statistics query computes: SUM for cumulative types, the others for discrete ones."""

    SUM = 1
    AVERAGE = 2
    MINIMUM = 4
    MAXIMUM = 8


class Interval(IntEnum):
    """Calendar buckets of a statistics query (NONE: one bucket over the whole range)."""

    NONE = 0
    HOUR = 1
    DAY = 2
    WEEK = 3
    MONTH = 4


@dataclass(frozen=True)
class Quantity:
    """A value in a unit (count; count/min; kcal, kJ; m, km, mi; kg, lb, g; %)."""

    value: float
    unit: str


@dataclass(frozen=True)
class Workout:
    """A workout's details (the value of an ``HKWorkoutTypeIdentifier`` sample)."""

    activity_type: str
    duration: timedelta
    total_energy: Optional[Quantity] = None
    total_distance: Optional[Quantity] = None


@dataclass(frozen=True)
class Correlation:
    """A correlation's objects (the value of a blood pressure or food sample, as ``HKCorrelation``):
    samples of its member types, each with its own uuid, within the correlation's start and end.
    Saving needs share permission for each member's type; a query (or an anchored query) of the
    correlation type returns the correlations with an object the app may read, showing only those
    objects, and an anchored query the deletions of correlations it could have seen."""

    objects: Tuple["Sample", ...] = ()

    def __init__(self, objects: Sequence["Sample"] = ()) -> None:
        object.__setattr__(self, "objects", tuple(objects))


#: A sample's value: a quantity, a category value (an int, e.g. a sleep stage), a workout, or a correlation.
SampleValue = Union[Quantity, int, Workout, Correlation]


def new_uuid() -> str:
    """A fresh sample uuid in the broker's canonical (lower-case 8-4-4-4-12) spelling."""
    return str(_uuid.uuid4())


@dataclass(frozen=True)
class Sample:
    """One health sample. ``uuid`` defaults to a fresh one; ``source_app_id`` and ``created`` are set
    by the broker on reads and ignored on save (a sample's identity is (source app, uuid))."""

    type: str
    start: datetime
    end: datetime
    value: SampleValue
    uuid: str = field(default_factory=new_uuid)
    metadata: Mapping[str, str] = field(default_factory=dict)
    source_app_id: str = ""
    created: Optional[datetime] = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Sample":
        """A sample from a dict with the same keys; ``value`` may also be given as ``quantity``
        (a Quantity, or a ``(value, unit)`` pair), ``category_value``, ``workout`` or ``objects`` (a
        correlation's member samples, as Samples or dicts)."""
        data = dict(data)
        if "value" not in data:
            if "quantity" in data:
                quantity = data.pop("quantity")
                data["value"] = quantity if isinstance(quantity, Quantity) else Quantity(*quantity)
            elif "category_value" in data:
                data["value"] = int(data.pop("category_value"))
            elif "workout" in data:
                data["value"] = data.pop("workout")
            elif "objects" in data:
                data["value"] = Correlation([o if isinstance(o, Sample) else Sample.from_dict(o) for o in data.pop("objects")])
        return cls(**data)

    def to_proto(self) -> "pb.Sample":
        """The wire form (for Save)."""
        message = pb.Sample(uuid=self.uuid, type=self.type, start_us=to_micros(self.start), end_us=to_micros(self.end))
        value = self.value
        if isinstance(value, Quantity):
            message.quantity.CopyFrom(pb.Quantity(value=value.value, unit=value.unit))
        elif isinstance(value, Workout):
            message.workout.CopyFrom(_workout_to_proto(value))
        elif isinstance(value, Correlation):
            message.correlation.SetInParent()
            for member in value.objects:
                message.correlation.objects.add().CopyFrom(member.to_proto())
        elif isinstance(value, int) and not isinstance(value, bool):
            message.category_value = value
        else:
            raise TypeError(f"sample {self.uuid}: value must be a Quantity, an int (category), a Workout or a Correlation, "
                            f"not {type(value).__name__}")
        for key, text in self.metadata.items():
            message.metadata.add(key=key, value=text)
        return message

    @classmethod
    def from_proto(cls, message: "pb.Sample") -> "Sample":
        """A sample read from the broker."""
        kind = message.WhichOneof("value")
        value: SampleValue
        if kind == "quantity":
            value = Quantity(message.quantity.value, message.quantity.unit)
        elif kind == "workout":
            value = _workout_from_proto(message.workout)
        elif kind == "correlation":
            value = Correlation([cls.from_proto(member) for member in message.correlation.objects])
        else:
            value = message.category_value
        return cls(
            type=message.type,
            start=from_micros(message.start_us),
            end=from_micros(message.end_us),
            value=value,
            uuid=message.uuid,
            metadata={entry.key: entry.value for entry in message.metadata},
            source_app_id=message.source_app_id,
            created=from_micros(message.created_us) if message.created_us else None,
        )


def _workout_to_proto(workout: Workout) -> "pb.Workout":
    message = pb.Workout(activity_type=workout.activity_type, duration_us=workout.duration // timedelta(microseconds=1))
    if workout.total_energy is not None:
        message.total_energy.CopyFrom(pb.Quantity(value=workout.total_energy.value, unit=workout.total_energy.unit))
    if workout.total_distance is not None:
        message.total_distance.CopyFrom(pb.Quantity(value=workout.total_distance.value, unit=workout.total_distance.unit))
    return message


def _workout_from_proto(message: "pb.Workout") -> Workout:
    return Workout(
        activity_type=message.activity_type,
        duration=timedelta(microseconds=message.duration_us),
        total_energy=Quantity(message.total_energy.value, message.total_energy.unit) if message.HasField("total_energy") else None,
        total_distance=Quantity(message.total_distance.value, message.total_distance.unit) if message.HasField("total_distance") else None,
    )


def predicate(start: Optional[datetime], end: Optional[datetime], options: int = QueryOptions.NONE) -> "pb.SamplePredicate":
    """A ``SamplePredicate``: a missing bound is open (as ``predicateForSamples(withStart:end:options:)``)."""
    message = pb.SamplePredicate(options=int(options))
    if start is not None:
        message.has_start = True
        message.start_us = to_micros(start)
    if end is not None:
        message.has_end = True
        message.end_us = to_micros(end)
    return message


class SaveResult(NamedTuple):
    """What a save did: samples newly saved, and samples already saved with the same content."""

    saved: int
    unchanged: int


class DeletedObject(NamedTuple):
    """A deletion seen by an anchored query: the sample's identity (source app, uuid)."""

    uuid: str
    source_app_id: str


class AnchoredResult(NamedTuple):
    """What an anchored query returns: unpack as ``added, deleted, new_anchor = ...``."""

    added: List[Sample]
    deleted: List[DeletedObject]
    new_anchor: bytes


@dataclass(frozen=True)
class StatisticsBucket:
    """One interval of a statistics result; a figure not asked for (or not defined) is None."""

    start: datetime
    end: datetime
    sample_count: int
    sum: Optional[float]
    average: Optional[float]
    minimum: Optional[float]
    maximum: Optional[float]

    @classmethod
    def from_proto(cls, message: "pb.StatisticsBucket") -> "StatisticsBucket":
        return cls(
            start=from_micros(message.start_us),
            end=from_micros(message.end_us),
            sample_count=message.sample_count,
            sum=message.sum if message.has_sum else None,
            average=message.average if message.has_average else None,
            minimum=message.minimum if message.has_minimum else None,
            maximum=message.maximum if message.has_maximum else None,
        )


@dataclass(frozen=True)
class Statistics:
    """A statistics result: the unit of every figure, and the buckets in time order."""

    unit: str
    buckets: List[StatisticsBucket]


@dataclass(frozen=True)
class ObserveEvent:
    """A change to a type the app may read (an Observe stream item)."""

    type: str
    changed: datetime


@dataclass(frozen=True)
class SessionInfo:
    """What the broker said in its Hello reply."""

    broker_version: str
    protocol_version: int
    max_frame_bytes: int
    max_calls_in_flight: int
    broker_time: datetime


def dates_by_type(entries: Any) -> Dict[str, datetime]:
    """``{type: datetime}`` from repeated ``TypeDate``."""
    return {entry.type: from_micros(entry.date_us) for entry in entries}
