"""Conversions between the wire's instants (int64 microseconds since the Unix epoch, UTC) and
aware ``datetime`` values.

The arithmetic is done on integers (``timedelta`` holds whole microseconds), so a value read from the
broker and written back is bit-for-bit the one the broker sent: float seconds would round.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Optional, Union

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ONE_MICROSECOND = timedelta(microseconds=1)

#: A duration: a ``timedelta`` or a number of seconds.
Duration = Union[timedelta, float, int]


def to_micros(when: datetime) -> int:
    """Microseconds since the epoch of an aware ``datetime``.

    A naive ``datetime`` is refused rather than taken as local or UTC time: guessing would move every
    sample by the machine's UTC offset without a word.
    """
    if when.tzinfo is None or when.tzinfo.utcoffset(when) is None:
        raise ValueError(f"naive datetime {when!r}: pass a timezone-aware datetime (e.g. tzinfo=timezone.utc)")
    return (when - EPOCH) // _ONE_MICROSECOND


def from_micros(micros: int) -> datetime:
    """The aware UTC ``datetime`` of a wire instant."""
    return EPOCH + timedelta(microseconds=micros)


def duration_micros(duration: Optional[Duration]) -> int:
    """Whole microseconds of a duration (None: 0, the wire's "none")."""
    if duration is None:
        return 0
    if isinstance(duration, timedelta):
        return duration // _ONE_MICROSECOND
    return round(duration * 1_000_000)


def seconds(duration: Optional[Duration]) -> Optional[float]:
    """A duration in seconds as float, for ``threading`` waits (None stays None)."""
    if duration is None:
        return None
    if isinstance(duration, timedelta):
        return duration.total_seconds()
    return float(duration)
