"""``BrokerAdmin``: the few admin-socket calls tests, examples and consent agents need.

The admin socket (mode 0600, peer uid checked by the broker) needs no Hello. ``healthctl`` covers
the rest of the admin surface; this module stays small on purpose.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from typing import Callable, Iterable, List, Optional, Sequence, Union

from . import healthbroker_pb2 as pb
from ._connection import BrokerStream, Connection
from ._time import Duration, from_micros, to_micros
from .errors import BrokerError, StatusCode
from .store import default_socket_dir


def default_admin_socket() -> str:
    """The admin socket: ``$HEALTHBROKER_ADMIN_SOCKET``, else ``admin.sock`` beside the app socket."""
    return os.environ.get("HEALTHBROKER_ADMIN_SOCKET") or os.path.join(default_socket_dir(), "admin.sock")


class ShareDecision(IntEnum):
    UNDECIDED = 0
    DENY = 1
    ALLOW = 2


class ReadDecision(IntEnum):
    UNDECIDED = 0
    DENY = 1
    FULL = 2
    LIMITED = 3  # with limited_from


@dataclass(frozen=True)
class TypeDecision:
    """A person's answer for one type; ``limited_from`` (not after now) goes with ``ReadDecision.LIMITED``."""

    type: str
    share: ShareDecision = ShareDecision.UNDECIDED
    read: ReadDecision = ReadDecision.UNDECIDED
    limited_from: Optional[datetime] = None

    def to_proto(self) -> "pb.TypeDecision":
        return pb.TypeDecision(type=self.type, share=int(self.share), read=int(self.read),
                               limited_from_us=to_micros(self.limited_from) if self.limited_from else 0)


@dataclass(frozen=True)
class Grant:
    """A recorded decision of one app for one type."""

    type: str
    share: ShareDecision
    read: ReadDecision
    limited_from: Optional[datetime]
    decided: datetime
    decided_by: str


@dataclass(frozen=True)
class Prompt:
    """A pending authorization request: the app and only the types still undecided."""

    prompt_id: int
    app_id: str
    app_name: str
    share_types: List[str]
    read_types: List[str]
    created: datetime
    #: When the app's waiting call passes its deadline; None when the app set none.
    deadline: Optional[datetime] = None

    @classmethod
    def from_proto(cls, message: "pb.Prompt") -> "Prompt":
        return cls(message.prompt_id, message.app_id, message.app_name, list(message.share_types),
                   list(message.read_types), from_micros(message.created_us),
                   from_micros(message.deadline_us) if message.deadline_us else None)


@dataclass(frozen=True)
class PromptResolved:
    """A prompt that left the pending set (answered, cancelled or withdrawn)."""

    prompt_id: int
    resolution: int


PromptEvent = Union[Prompt, PromptResolved]


class BrokerAdmin:
    """A connection to the admin socket. Thread-safe; calls multiplex as on :class:`HealthStore`."""

    def __init__(self, connection: Connection) -> None:
        """Use :meth:`connect`."""
        self._connection = connection

    @classmethod
    def connect(cls, socket_path: Optional[str] = None) -> "BrokerAdmin":
        return cls(Connection(socket_path or default_admin_socket()))

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "BrokerAdmin":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def ping(self, timeout: Optional[Duration] = None) -> None:
        self._connection.unary("ping", pb.PingRequest(), timeout)

    def add_app(self, app_id: str, name: str = "", read_usage: str = "", share_usage: str = "",
                pinned_uid: Optional[int] = None) -> str:
        """Registers an app and returns its token (shown once: the broker keeps only a hash). An app
        may ask to read only with a ``read_usage`` text, to share only with a ``share_usage`` text."""
        request = pb.AdminAddAppRequest(app_id=app_id, name=name or app_id, read_usage=read_usage,
                                        share_usage=share_usage, has_pinned_uid=pinned_uid is not None,
                                        pinned_uid=pinned_uid or 0)
        return self._connection.unary("admin_add_app", request).admin_add_app.app_token

    def remove_app(self, app_id: str, delete_data: bool = False) -> int:
        """Removes an app (its connections close, its grants go); returns the connections closed."""
        request = pb.AdminRemoveAppRequest(app_id=app_id, delete_data=delete_data)
        return self._connection.unary("admin_remove_app", request).admin_remove_app.connections_closed

    def list_grants(self, app_id: str) -> List[Grant]:
        frame = self._connection.unary("admin_list_grants", pb.AdminListGrantsRequest(app_id=app_id))
        return [Grant(g.type, ShareDecision(g.share), ReadDecision(g.read),
                      from_micros(g.limited_from_us) if g.read == ReadDecision.LIMITED else None,
                      from_micros(g.decided_us), g.decided_by)
                for g in frame.admin_list_grants.grants]

    def watch_prompts(self) -> BrokerStream[PromptEvent]:
        """Every pending prompt, then changes as they happen (an endless stream; close it to stop)."""
        call = self._connection.open_stream("admin_watch_prompts", pb.AdminWatchPromptsRequest())

        def convert(item: "pb.StreamItem") -> List[PromptEvent]:
            event = item.prompt_event
            if event.WhichOneof("event") == "raised":
                return [Prompt.from_proto(event.raised)]
            return [PromptResolved(event.resolved.prompt_id, event.resolved.resolution)]

        return BrokerStream(self._connection, call, convert)

    def answer_prompt(self, prompt_id: int, decisions: Iterable[TypeDecision]) -> None:
        """Answers a prompt; a prompted type left out is recorded as denied."""
        request = pb.AdminAnswerPromptRequest(prompt_id=prompt_id, decisions=[d.to_proto() for d in decisions])
        self._connection.unary("admin_answer_prompt", request)

    def cancel_prompt(self, prompt_id: int) -> None:
        """Cancels a prompt as the person would: the app's request fails with USER_CANCELED."""
        self._connection.unary("admin_cancel_prompt", pb.AdminCancelPromptRequest(prompt_id=prompt_id))


#: A consent agent's decision for a prompt: the answers, or None to cancel the prompt.
Decider = Callable[[Prompt], Optional[Sequence[TypeDecision]]]


class ConsentAgent:
    """Answers prompts on a background thread with ``decide`` (a stand-in for a person).

    Watching and answering share the admin connection: the answer is a unary call made while the
    watch stream is in flight on the same socket. Stop it with :meth:`stop` (or ``with``).
    """

    def __init__(self, admin: BrokerAdmin, decide: Decider) -> None:
        self._admin = admin
        self._decide = decide
        self._stream = admin.watch_prompts()
        self._thread = threading.Thread(target=self._run, name="healthbroker-consent-agent", daemon=True)
        self.errors: List[BaseException] = []
        self._thread.start()

    def _run(self) -> None:
        try:
            for event in self._stream:
                if not isinstance(event, Prompt):
                    continue
                try:
                    decisions = self._decide(event)
                    if decisions is None:
                        self._admin.cancel_prompt(event.prompt_id)
                    else:
                        self._admin.answer_prompt(event.prompt_id, decisions)
                except BrokerError as error:
                    if error.code != StatusCode.NOT_FOUND:  # withdrawn meanwhile: nothing to answer
                        self.errors.append(error)
                except Exception as error:  # a decider bug: keep it for the owner to see
                    self.errors.append(error)
        except BrokerError as error:
            if error.code not in (StatusCode.CANCELLED, StatusCode.UNAVAILABLE):
                self.errors.append(error)

    def stop(self) -> None:
        self._stream.close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "ConsentAgent":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
