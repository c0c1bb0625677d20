"""``HealthStore``: an app's session on the app socket, shaped after HealthKit's ``HKHealthStore``."""

from __future__ import annotations

import os
from datetime import datetime
from typing import Dict, Iterable, List, Optional

from . import healthbroker_pb2 as pb
from ._connection import BrokerStream, Connection
from ._time import Duration, duration_micros, from_micros, to_micros
from .errors import BrokerError, DomainCode, StatusCode
from .model import (
    AnchoredResult,
    AuthorizationStatus,
    DeletedObject,
    Interval,
    ObserveEvent,
    QueryOptions,
    RequestStatus,
    Sample,
    SaveResult,
    SessionInfo,
    SortKey,
    Statistics,
    StatisticsBucket,
    StatisticsOptions,
    dates_by_type,
    predicate,
)

PROTOCOL_VERSION = 1


def default_socket_dir() -> str:
    """Where the broker puts its sockets by default: ``$HEALTHBROKER_RUNTIME_DIR``, else
    ``$XDG_RUNTIME_DIR/healthbroker``, else ``/tmp/healthbroker-<uid>`` (the rule of healthbrokerd
    and healthctl, so a client finds a daemon started without flags)."""
    if os.environ.get("HEALTHBROKER_RUNTIME_DIR"):
        return os.environ["HEALTHBROKER_RUNTIME_DIR"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "healthbroker")
    return f"/tmp/healthbroker-{os.getuid()}"


def default_app_socket() -> str:
    """The app socket: ``$HEALTHBROKER_APP_SOCKET``, else ``app.sock`` in :func:`default_socket_dir`."""
    return os.environ.get("HEALTHBROKER_APP_SOCKET") or os.path.join(default_socket_dir(), "app.sock")


class HealthStore:
    """One app's connection to the broker.

    Every method is synchronous and thread-safe: call it from as many threads as you like, and the
    calls are in flight together on this one connection, each completing on its own (a background
    reader thread routes the broker's frames by call id). Failures raise :class:`BrokerError`.
    ``timeout`` (seconds or a ``timedelta``) sets the call's deadline at the broker; when it passes
    the call raises DEADLINE_EXCEEDED. Streaming methods return a :class:`BrokerStream` iterator:
    close it (or use ``with``) when you stop early, which cancels the call at the broker.
    """

    def __init__(self, connection: Connection, app_id: str, session: SessionInfo) -> None:
        """Use :meth:`connect`."""
        self._connection = connection
        self.app_id = app_id
        self.session = session

    @classmethod
    def connect(cls, app_id: str, app_token: str, socket_path: Optional[str] = None,
                timeout: Optional[Duration] = 10.0) -> "HealthStore":
        """Connects to the app socket and says Hello. A wrong token or unknown app id raises
        UNAUTHENTICATED (the broker does not say which)."""
        connection = Connection(socket_path or default_app_socket())
        try:
            frame = connection.unary(
                "hello", pb.HelloRequest(app_id=app_id, app_token=app_token, protocol_version=PROTOCOL_VERSION), timeout)
        except BaseException:
            connection.close()
            raise
        hello = frame.hello
        connection.max_frame_bytes = hello.max_frame_bytes
        session = SessionInfo(hello.broker_version, hello.protocol_version, hello.max_frame_bytes,
                              hello.max_calls_in_flight, from_micros(hello.broker_time_us))
        return cls(connection, app_id, session)

    def close(self) -> None:
        """Closes the connection; calls still in flight raise UNAVAILABLE."""
        self._connection.close()

    def __enter__(self) -> "HealthStore":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def connection(self) -> Connection:
        """The underlying connection (for diagnostics such as ``calls_in_flight``)."""
        return self._connection

    # ---- diagnostics --------------------------------------------------------------------------

    def ping(self, payload: bytes = b"", delay: Optional[Duration] = None, timeout: Optional[Duration] = None) -> bytes:
        """Round trip; the broker answers after ``delay`` (served by a timer) and echoes ``payload``."""
        request = pb.PingRequest(delay_us=duration_micros(delay), payload=payload)
        return self._connection.unary("ping", request, timeout).ping.payload

    def ping_stream(self, count: int, payload: bytes = b"", window: int = 0,
                    timeout: Optional[Duration] = None) -> BrokerStream[int]:
        """``count`` ping items under flow control; yields their sequence numbers."""
        call = self._connection.open_stream("ping_stream", pb.PingStreamRequest(count=count, payload=payload), window, timeout)
        return BrokerStream(self._connection, call, lambda item: [item.ping.sequence])

    # ---- authorization ------------------------------------------------------------------------

    def request_authorization(self, share: Iterable[str] = (), read: Iterable[str] = (),
                              timeout: Optional[Duration] = None) -> None:
        """Asks the person for share and read access; returns once every type is decided (also when
        everything was denied: read denial is never told). The person cancelling raises CANCELLED
        with ``DomainCode.USER_CANCELED``."""
        request = pb.RequestAuthorizationRequest(share_types=sorted(set(share)), read_types=sorted(set(read)))
        self._connection.unary("request_authorization", request, timeout)

    def authorization_status(self, type: str, timeout: Optional[Duration] = None) -> AuthorizationStatus:
        """The share status of ``type`` (read status is never revealed)."""
        frame = self._connection.unary("authorization_status", pb.AuthorizationStatusRequest(type=type), timeout)
        return AuthorizationStatus(frame.authorization_status.status)

    def request_status(self, share: Iterable[str] = (), read: Iterable[str] = (),
                       timeout: Optional[Duration] = None) -> RequestStatus:
        """Whether :meth:`request_authorization` with these types would prompt the person."""
        request = pb.RequestStatusRequest(share_types=sorted(set(share)), read_types=sorted(set(read)))
        return RequestStatus(self._connection.unary("request_status", request, timeout).request_status.status)

    def earliest_authorized_sample_date(self, types: Iterable[str],
                                        timeout: Optional[Duration] = None) -> Dict[str, datetime]:
        """``{type: date}`` for the types with *limited* read access only: the date reads start at.
        Full, denied and undecided types are absent alike."""
        request = pb.EarliestAuthorizedSampleDateRequest(types=list(types))
        frame = self._connection.unary("earliest_authorized_sample_date", request, timeout)
        return dates_by_type(frame.earliest_authorized_sample_date.dates)

    def earliest_permitted_sample_date(self, timeout: Optional[Duration] = None) -> datetime:
        """The store-wide floor: no sample before it is ever returned."""
        frame = self._connection.unary("earliest_permitted_sample_date", pb.EarliestPermittedSampleDateRequest(), timeout)
        return from_micros(frame.earliest_permitted_sample_date.date_us)

    # ---- samples ------------------------------------------------------------------------------

    def save(self, samples: Iterable[object], timeout: Optional[Duration] = None) -> SaveResult:
        """Saves a batch, all or nothing, once committed; returns ``saved`` and ``unchanged`` counts
        (saving the same sample again is unchanged, so retries are safe). Items are :class:`Sample`
        values or dicts with its keys (see :meth:`Sample.from_dict`)."""
        wire = [(item if isinstance(item, Sample) else Sample.from_dict(item)).to_proto()  # type: ignore[arg-type]
                for item in samples]
        response = self._connection.unary("save", pb.SaveRequest(samples=wire), timeout).save
        return SaveResult(response.saved, response.unchanged)

    def delete(self, uuids: Iterable[str] = (), *, type: str = "", start: Optional[datetime] = None,
               end: Optional[datetime] = None, options: int = QueryOptions.NONE,
               timeout: Optional[Duration] = None) -> int:
        """Deletes samples this app saved: by uuid, or every sample of ``type`` in the date range.
        Returns how many were deleted (uuids this app does not hold are skipped silently)."""
        request = pb.DeleteRequest(uuids=list(uuids), type=type)
        if type:
            request.predicate.CopyFrom(predicate(start, end, options))
        return self._connection.unary("delete", request, timeout).delete.deleted

    def query(self, type: str, start: Optional[datetime] = None, end: Optional[datetime] = None,
              options: int = QueryOptions.NONE, limit: int = 0, sort: SortKey = SortKey.START,
              descending: bool = False, unit: str = "", *, page_size: int = 0, window: int = 0,
              timeout: Optional[Duration] = None) -> BrokerStream[Sample]:
        """Samples of ``type`` in ``[start, end)`` (see :class:`QueryOptions`), clamped by the broker to
        what this app may read; yields :class:`Sample` values as pages arrive.

        ``window`` is how many pages (of ``page_size`` samples; 0: 512) the broker may send ahead of
        the consumer (0: 64, at most 4,096); credit is granted back as pages are consumed.
        ``limit`` 0 is no limit; ``unit`` converts quantities (empty: the type's canonical unit).
        """
        request = pb.QueryRequest(type=type, predicate=predicate(start, end, options), limit=limit,
                                  sort=pb.SampleSort(key=int(sort), descending=descending), unit=unit,
                                  page_size=page_size)
        call = self._connection.open_stream("query", request, window, timeout)
        return BrokerStream(self._connection, call, lambda item: map(Sample.from_proto, item.samples.samples))

    def anchored_query(self, type: str, anchor: Optional[bytes] = None, start: Optional[datetime] = None,
                       end: Optional[datetime] = None, options: int = QueryOptions.NONE, limit: int = 0,
                       unit: str = "", *, timeout: Optional[Duration] = None) -> AnchoredResult:
        """What changed since ``anchor``: ``(added, deleted, new_anchor)``. Without an anchor: every
        sample this app may read and no deletions. Pass ``new_anchor`` to the next call. An anchor
        too old raises FAILED_PRECONDITION with ``DomainCode.ANCHOR_EXPIRED``: query again without."""
        request = pb.AnchoredQueryRequest(type=type, predicate=predicate(start, end, options),
                                          anchor=anchor or b"", limit=limit, unit=unit)
        added: List[Sample] = []
        deleted: List[DeletedObject] = []
        new_anchor = anchor or b""
        call = self._connection.open_stream("anchored_query", request, 0, timeout)
        with BrokerStream(self._connection, call, lambda item: [item.anchored_page]) as pages:
            for page in pages:
                added.extend(Sample.from_proto(sample) for sample in page.added)
                sources = list(page.deleted_source_app_ids)
                deleted.extend(DeletedObject(uuid, sources[index] if index < len(sources) else "")
                               for index, uuid in enumerate(page.deleted_uuids))
                if page.done:
                    new_anchor = page.new_anchor
        return AnchoredResult(added, deleted, new_anchor)

    def statistics(self, type: str, start: Optional[datetime] = None, end: Optional[datetime] = None,
                   options: int = StatisticsOptions.SUM, interval: Interval = Interval.NONE,
                   anchor: Optional[datetime] = None, time_zone: str = "", unit: str = "",
                   predicate_options: int = QueryOptions.NONE, *,
                   timeout: Optional[Duration] = None) -> Statistics:
        """Sum (cumulative types) or average/minimum/maximum (discrete types) over the range, or per
        calendar ``interval`` aligned to ``anchor`` in the IANA ``time_zone`` (default UTC). A sample
        counts in the interval holding its start. No sample at all raises NOT_FOUND (``NO_DATA``)."""
        request = pb.StatisticsRequest(type=type, predicate=predicate(start, end, predicate_options),
                                       options=int(options), interval=int(interval),
                                       anchor_us=to_micros(anchor) if anchor is not None else 0,
                                       time_zone=time_zone, unit=unit)
        response = self._connection.unary("statistics", request, timeout).statistics
        return Statistics(response.unit, [StatisticsBucket.from_proto(bucket) for bucket in response.buckets])

    def observe(self, types: Iterable[str], timeout: Optional[Duration] = None) -> BrokerStream[ObserveEvent]:
        """An endless stream of :class:`ObserveEvent`, one each time a type this app may read changes in
        a way it may see. Close it to stop observing; ``timeout`` bounds the whole stream (it then
        raises DEADLINE_EXCEEDED)."""
        call = self._connection.open_stream("observe", pb.ObserveRequest(types=list(types)), 0, timeout)
        return BrokerStream(self._connection, call,
                            lambda item: [ObserveEvent(item.observed.type, from_micros(item.observed.changed_us))])


__all__ = ["HealthStore", "default_app_socket", "default_socket_dir", "BrokerError", "StatusCode", "DomainCode"]

