"""Status codes and the one exception every failed call raises."""

from __future__ import annotations

from enum import IntEnum
from typing import Optional, Type

from . import healthbroker_pb2 as pb


class StatusCode(IntEnum):
    """A call's status, numbered as gRPC's (``StatusCode`` in the .proto)."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


class DomainCode(IntEnum):
    """The HealthKit-style detail of a status (``DomainCode`` in the .proto, without its prefix)."""

    NONE = 0
    INVALID_ARGUMENT = 1
    AUTHORIZATION_DENIED = 2
    AUTHORIZATION_NOT_DETERMINED = 3
    NO_DATA = 4
    USER_CANCELED = 5
    DATABASE_INACCESSIBLE = 6
    ANCHOR_EXPIRED = 7
    UNAUTHENTICATED = 8
    REQUEST_PENDING = 9
    BROKER_SHUTTING_DOWN = 10
    PROTOCOL_ERROR = 11


def _enum_or_int(kind: Type[IntEnum], value: int) -> int:
    """A known value as its enum member; a value from a newer broker stays a plain int."""
    try:
        return kind(value)
    except ValueError:
        return value


class BrokerError(Exception):
    """A call that did not end OK: the broker's status, or one the client made up for the same
    reasons (the connection closed: UNAVAILABLE; no answer by the deadline: DEADLINE_EXCEEDED).

    ``code`` is a :class:`StatusCode`, ``domain`` a :class:`DomainCode` (each a plain int when a
    newer broker sends a value this client does not know), ``message`` the broker's text.
    """

    def __init__(self, code: int, domain: int = DomainCode.NONE, message: str = "") -> None:
        self.code = _enum_or_int(StatusCode, code)
        self.domain = _enum_or_int(DomainCode, domain)
        self.message = message
        super().__init__(str(self))

    @classmethod
    def from_status(cls, status: "pb.Status") -> "BrokerError":
        """The error a wire ``Status`` stands for."""
        return cls(status.code, status.domain, status.message)

    def __str__(self) -> str:
        code = self.code.name if isinstance(self.code, StatusCode) else str(self.code)
        text = code
        if self.domain:
            domain = self.domain.name if isinstance(self.domain, DomainCode) else str(self.domain)
            text += f" ({domain})"
        return f"{text}: {self.message}" if self.message else text

    def __repr__(self) -> str:
        return f"BrokerError({self.code!r}, {self.domain!r}, {self.message!r})"


def status_error(frame: "pb.ServerFrame") -> Optional[BrokerError]:
    """The error a frame's status carries, or None when it has none or it is OK."""
    if frame.HasField("status") and frame.status.code != StatusCode.OK:
        return BrokerError.from_status(frame.status)
    return None
