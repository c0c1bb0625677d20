"""One connection to the broker: frames, call ids, the reader thread, credit and cancel.

Threading model. A :class:`Connection` owns one Unix socket and one background *reader thread*.
Any number of user threads make calls at once: a call takes the next call id, registers itself in
the call table and writes its frame (writes are serialised by a lock, so frames never interleave).
The reader thread is the only one that reads the socket; it decodes each ``ServerFrame`` and hands
it to the call with that id: a unary call's waiting thread is woken, a stream's item is queued for
its consumer. So calls complete independently and in any order, a slow call never holds back the
others, and nothing the broker sends waits for a user thread. The reader never writes (credit and
cancel are written by the consumer's thread), so it cannot block on a full socket while the broker
blocks on it.

Flow control. A stream starts with ``initial_credit`` = its window (64 by default, at most 4,096 as
the broker clamps). The broker never sends more items than granted, so the queue of items received
and not yet taken is bounded by the window. Credit is given back as the *consumer takes* items
(not as they arrive): once half a window has been taken, that many items are granted in one
``Credit`` frame. A consumer that stops reading therefore stops its stream after at most one window,
without slowing the other calls on the connection.

Cancel. Closing a stream that has not ended sends ``Cancel``; items that still arrive for it are
dropped, and the call leaves the table when the broker's final (CANCELLED) status arrives. A call
whose local deadline passes is cancelled the same way. Call ids are never reused on a connection,
so a late frame cannot be taken for a newer call's.
"""

from __future__ import annotations

import collections
import socket
import struct
import threading
import time
from typing import Callable, Deque, Dict, Generic, Iterable, Iterator, Optional, TypeVar, Union

from google.protobuf.message import Message

from . import healthbroker_pb2 as pb
from ._time import Duration, duration_micros, seconds
from .errors import BrokerError, DomainCode, StatusCode, status_error

#: Items a stream may receive before it grants more (the broker's default window).
DEFAULT_WINDOW = 64
#: The broker clamps a window, and credit outstanding, to this many items.
MAX_WINDOW = 4096
#: How long past a call's deadline the client waits for the broker's own DEADLINE_EXCEEDED before it
#: gives up locally: the broker counts the deadline from the call's arrival, a little after the send.
DEADLINE_GRACE_SECONDS = 1.0

_HEADER = struct.Struct(">BI")


class _Call:
    """A call in the table: what the reader thread needs to complete it."""

    def __init__(self, call_id: int, deadline: Optional[float]) -> None:
        self.call_id = call_id
        #: ``time.monotonic()`` after which the client stops waiting (None: never).
        self.deadline = deadline

    def deliver(self, frame: "pb.ServerFrame") -> bool:
        """Takes a frame for this call (reader thread); returns True when it ended the call."""
        raise NotImplementedError

    def fail(self, error: BrokerError) -> None:
        """Ends the call with a connection-level error (reader thread, or close)."""
        raise NotImplementedError

    def remaining(self) -> Optional[float]:
        """Seconds left before the local deadline (None: no deadline)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())


class _UnaryCall(_Call):
    """A unary call: one frame ends it; the caller's thread waits on an event."""

    def __init__(self, call_id: int, deadline: Optional[float]) -> None:
        super().__init__(call_id, deadline)
        self._done = threading.Event()
        self._frame: Optional[pb.ServerFrame] = None
        self._error: Optional[BrokerError] = None

    def deliver(self, frame: "pb.ServerFrame") -> bool:
        self._error = status_error(frame)
        self._frame = frame
        self._done.set()
        return True

    def fail(self, error: BrokerError) -> None:
        if not self._done.is_set():
            self._error = error
            self._done.set()

    def wait(self) -> Optional["pb.ServerFrame"]:
        """The answering frame; raises the call's error. None: the local deadline passed first."""
        if not self._done.wait(self.remaining()):
            return None
        if self._error is not None:
            raise self._error
        return self._frame


class _End:
    """Queued after a stream's last item: how it ended (error None: OK)."""

    def __init__(self, error: Optional[BrokerError]) -> None:
        self.error = error


class _StreamCall(_Call):
    """A server-streaming call: items are queued for the consumer until the final status."""

    def __init__(self, call_id: int, deadline: Optional[float], window: int) -> None:
        super().__init__(call_id, deadline)
        self.window = window
        #: Grant credit back after this many items taken (half a window, at least 1).
        self.grant_every = max(1, window // 2)
        self.taken_since_grant = 0
        self.credits_sent = 0
        self.cancelled = False
        self.finished = False
        self._items: Deque[Union["pb.StreamItem", _End]] = collections.deque()
        self._ready = threading.Condition(threading.Lock())

    def deliver(self, frame: "pb.ServerFrame") -> bool:
        ended = frame.HasField("status") or not frame.HasField("stream_item")
        with self._ready:
            if ended:
                self._items.append(_End(status_error(frame)))
            elif not self.cancelled:
                self._items.append(frame.stream_item)
            self._ready.notify()
        return ended

    def fail(self, error: BrokerError) -> None:
        with self._ready:
            self._items.append(_End(error))
            self._ready.notify()

    def take(self) -> Union["pb.StreamItem", _End, None]:
        """The next item or the end; None when the local deadline passed first."""
        with self._ready:
            while not self._items:
                remaining = self.remaining()
                if remaining == 0.0:
                    return None
                self._ready.wait(remaining)
            return self._items.popleft()


class Connection:
    """A socket to the broker with many calls in flight (see the module docstring)."""

    def __init__(self, path: str, connect_timeout: float = 10.0) -> None:
        self.path = path
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(connect_timeout)
            sock.connect(path)
            sock.settimeout(None)
        except OSError as error:
            sock.close()
            raise BrokerError(StatusCode.UNAVAILABLE, DomainCode.NONE, f"cannot connect to {path}: {error}") from error
        self._sock = sock
        self._write_lock = threading.Lock()
        self._table_lock = threading.Lock()
        self._calls: Dict[int, _Call] = {}
        self._next_id = 1
        self._closed: Optional[BrokerError] = None
        #: Cancels asked for by finalizers, written by the next thread that writes (a finalizer may
        #: run inside a thread that holds the write lock, so it must not write itself).
        self._deferred_cancels: Deque[int] = collections.deque()
        #: The broker's frame-size limit once known (HelloResponse); frames over it are refused here.
        self.max_frame_bytes = 0
        self._reader = threading.Thread(target=self._read_loop, name=f"healthbroker-reader {path}", daemon=True)
        self._reader.start()

    # ---- calls --------------------------------------------------------------------------------

    def unary(self, method: str, request: Message, timeout: Optional[Duration] = None) -> "pb.ServerFrame":
        """Makes a unary call (``method`` is the ``Call.request`` case) and waits for its answer."""
        timeout_us = duration_micros(timeout)
        call = _UnaryCall(self._reserve_id(), self._local_deadline(timeout))
        self._start(call, method, request, timeout_us, 0)
        frame = call.wait()
        if frame is None:
            self.cancel(call.call_id)
            raise BrokerError(StatusCode.DEADLINE_EXCEEDED, DomainCode.NONE,
                              f"no answer within {seconds(timeout)} s (client-side deadline)")
        return frame

    def open_stream(self, method: str, request: Message, window: int = 0,
                    timeout: Optional[Duration] = None) -> _StreamCall:
        """Starts a server-streaming call with ``window`` items of credit (0: 64; clamped to 4,096)."""
        window = min(window or DEFAULT_WINDOW, MAX_WINDOW)
        call = _StreamCall(self._reserve_id(), self._local_deadline(timeout), window)
        self._start(call, method, request, duration_micros(timeout), window)
        return call

    def grant(self, call: _StreamCall, items: int) -> None:
        """Grants a stream ``items`` more items."""
        call.credits_sent += 1
        self._send(pb.ClientFrame(credit=pb.Credit(call_id=call.call_id, items=items)))

    def cancel(self, call_id: int) -> None:
        """Sends Cancel for a call; harmless once it ended (the broker ignores unknown ids)."""
        try:
            self._send(pb.ClientFrame(cancel=pb.Cancel(call_id=call_id)))
        except BrokerError:
            pass  # the connection is gone: the call ended with it

    def cancel_later(self, call_id: int) -> None:
        """Queues a Cancel to be written by the next write (safe from a finalizer)."""
        self._deferred_cancels.append(call_id)

    @property
    def calls_in_flight(self) -> int:
        """Calls the broker has not ended yet (cancelled ones stay until their CANCELLED arrives)."""
        with self._table_lock:
            return len(self._calls)

    @property
    def closed(self) -> bool:
        """True once the connection ended (closed here or by the broker)."""
        return self._closed is not None

    def close(self) -> None:
        """Closes the socket; calls in flight end with UNAVAILABLE."""
        self._shut(BrokerError(StatusCode.UNAVAILABLE, DomainCode.NONE, "connection closed by the client"))
        if self._reader is not threading.current_thread():
            self._reader.join(timeout=5)

    # ---- internals ----------------------------------------------------------------------------

    def _reserve_id(self) -> int:
        with self._table_lock:
            call_id = self._next_id
            self._next_id += 1
            return call_id

    @staticmethod
    def _local_deadline(timeout: Optional[Duration]) -> Optional[float]:
        wait = seconds(timeout)
        if wait is None or wait <= 0:
            return None
        return time.monotonic() + wait + DEADLINE_GRACE_SECONDS

    def _start(self, call: _Call, method: str, request: Message, timeout_us: int, credit: int) -> None:
        message = pb.Call(call_id=call.call_id, timeout_us=timeout_us, initial_credit=credit)
        getattr(message, method).CopyFrom(request)
        with self._table_lock:
            if self._closed is not None:
                raise _copy(self._closed)
            self._calls[call.call_id] = call
        try:
            self._send(pb.ClientFrame(call=message))
        except BrokerError:
            with self._table_lock:
                self._calls.pop(call.call_id, None)
            raise

    def _send(self, frame: "pb.ClientFrame") -> None:
        body = frame.SerializeToString()
        if self.max_frame_bytes and len(body) > self.max_frame_bytes:
            raise BrokerError(StatusCode.RESOURCE_EXHAUSTED, DomainCode.NONE,
                              f"frame of {len(body)} bytes is over the broker's limit of {self.max_frame_bytes}: "
                              "send a smaller batch")
        data = _HEADER.pack(0, len(body)) + body
        with self._write_lock:
            if self._closed is not None:
                raise _copy(self._closed)
            try:
                while self._deferred_cancels:
                    cancel = pb.ClientFrame(cancel=pb.Cancel(call_id=self._deferred_cancels.popleft()))
                    cancel_body = cancel.SerializeToString()
                    self._sock.sendall(_HEADER.pack(0, len(cancel_body)) + cancel_body)
                self._sock.sendall(data)
            except OSError as error:
                failure = BrokerError(StatusCode.UNAVAILABLE, DomainCode.NONE, f"connection lost: {error}")
                self._shut(failure)
                raise failure from error

    def _read_exactly(self, count: int) -> Optional[bytes]:
        chunks = []
        while count:
            chunk = self._sock.recv(min(count, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            count -= len(chunk)
        return b"".join(chunks)

    def _read_loop(self) -> None:
        reason = BrokerError(StatusCode.UNAVAILABLE, DomainCode.NONE, "the broker closed the connection")
        try:
            while True:
                header = self._read_exactly(_HEADER.size)
                if header is None:
                    break
                _, length = _HEADER.unpack(header)
                body = self._read_exactly(length) if length else b""
                if body is None:
                    break
                frame = pb.ServerFrame.FromString(body)
                if frame.call_id == 0:
                    # About the connection itself; the broker closes it next.
                    reason = status_error(frame) or reason
                    break
                with self._table_lock:
                    call = self._calls.get(frame.call_id)
                if call is not None and call.deliver(frame):
                    with self._table_lock:
                        self._calls.pop(frame.call_id, None)
        except OSError as error:
            if self._closed is None:
                reason = BrokerError(StatusCode.UNAVAILABLE, DomainCode.NONE, f"connection lost: {error}")
        except Exception as error:  # a frame protobuf cannot decode: nothing after it can be trusted
            reason = BrokerError(StatusCode.INTERNAL, DomainCode.PROTOCOL_ERROR, f"bad frame from the broker: {error}")
        self._shut(reason)

    def _shut(self, reason: BrokerError) -> None:
        """Marks the connection closed (first reason wins) and fails every call still in flight."""
        with self._table_lock:
            if self._closed is None:
                self._closed = reason
            reason = self._closed
            calls = list(self._calls.values())
            self._calls.clear()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if threading.current_thread() is self._reader:
            self._sock.close()
        for call in calls:
            call.fail(_copy(reason))


def _copy(error: BrokerError) -> BrokerError:
    """A fresh exception per raise: one instance raised in many threads would pile up tracebacks."""
    return BrokerError(error.code, error.domain, error.message)


T = TypeVar("T")


class BrokerStream(Generic[T]):
    """An iterator over a server stream's results, with flow control and cancel.

    Use it in a ``for`` loop; leaving the loop early (``break``, an exception) should be followed by
    :meth:`close` — or use ``with``, which closes it — so the broker stops the call (it is sent
    ``Cancel``) instead of waiting for credit forever. A stream that is garbage-collected unclosed is
    cancelled at the connection's next write.
    """

    def __init__(self, connection: Connection, call: _StreamCall,
                 convert: Callable[["pb.StreamItem"], Iterable[T]]) -> None:
        self._connection = connection
        self._call = call
        self._convert = convert
        self._pending: Deque[T] = collections.deque()

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        while not self._pending:
            item = self._next_item()
            if item is None:
                raise StopIteration
            self._pending.extend(self._convert(item))
        return self._pending.popleft()

    def _next_item(self) -> Optional["pb.StreamItem"]:
        """The next wire item (granting credit for it), or None at a clean end."""
        call = self._call
        if call.finished:
            return None
        item = call.take()
        if item is None:
            self.close()
            raise BrokerError(StatusCode.DEADLINE_EXCEEDED, DomainCode.NONE, "stream deadline passed (client-side)")
        if isinstance(item, _End):
            call.finished = True
            if item.error is not None:
                raise item.error
            return None
        call.taken_since_grant += 1
        if call.taken_since_grant >= call.grant_every:
            grant, call.taken_since_grant = call.taken_since_grant, 0
            self._connection.grant(call, grant)
        return item

    @property
    def call_id(self) -> int:
        """The call's id on its connection."""
        return self._call.call_id

    @property
    def credits_sent(self) -> int:
        """How many Credit frames this stream has sent (for tests and curiosity)."""
        return self._call.credits_sent

    @property
    def finished(self) -> bool:
        """True once the stream ended (its final status was taken) or was closed."""
        return self._call.finished

    def close(self) -> None:
        """Ends the stream: sends Cancel if the broker has not ended it yet. Idempotent."""
        call = self._call
        if call.finished:
            return
        call.finished = True
        call.cancelled = True
        self._pending.clear()
        self._connection.cancel(call.call_id)

    def __enter__(self) -> "BrokerStream[T]":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        call = getattr(self, "_call", None)
        if call is not None and not call.finished:
            call.finished = True
            call.cancelled = True
            self._connection.cancel_later(call.call_id)
