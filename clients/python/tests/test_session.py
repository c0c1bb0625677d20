"""Hello, authorization, EASD, calls in flight together, deadlines, a closing connection."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Callable, List

import pytest

from healthbroker import (
    HEART_RATE,
    SLEEP_ANALYSIS,
    STEP_COUNT,
    AuthorizationStatus,
    BrokerError,
    DomainCode,
    HealthStore,
    ReadDecision,
    RequestStatus,
    ShareDecision,
    StatusCode,
)
from healthbroker.admin import BrokerAdmin, Prompt, TypeDecision

from conftest import Agent, App, Daemon, grant


def test_hello_with_a_wrong_token_is_unauthenticated(daemon: Daemon, register: Callable[..., App]) -> None:
    app = register("hello")
    with pytest.raises(BrokerError) as wrong_token:
        HealthStore.connect(app.app_id, app.token + "x", daemon.app_socket)
    assert wrong_token.value.code == StatusCode.UNAUTHENTICATED
    assert wrong_token.value.domain == DomainCode.UNAUTHENTICATED
    with pytest.raises(BrokerError) as unknown_app:
        HealthStore.connect(app.app_id + ".unknown", app.token, daemon.app_socket)
    # The same answer for an unknown app: app ids cannot be probed.
    assert (unknown_app.value.code, unknown_app.value.message) == (StatusCode.UNAUTHENTICATED, wrong_token.value.message)
    with HealthStore.connect(app.app_id, app.token, daemon.app_socket) as store:
        assert store.session.protocol_version == 1 and store.session.max_frame_bytes > 0
        assert store.ping(b"after hello") == b"after hello"


def test_authorization_flow_and_earliest_authorized_sample_date(
        register: Callable[..., App], connect: Callable[[App], HealthStore], admin: BrokerAdmin, agent: Agent) -> None:
    limited_from = datetime.now(timezone.utc).replace(microsecond=123456) - timedelta(days=7)

    def decide(prompt: Prompt) -> List[TypeDecision]:
        return [TypeDecision(STEP_COUNT, share=ShareDecision.ALLOW, read=ReadDecision.LIMITED, limited_from=limited_from),
                TypeDecision(HEART_RATE, read=ReadDecision.FULL)]

    app = register("auth", decide)
    store = connect(app)
    assert store.authorization_status(STEP_COUNT) == AuthorizationStatus.NOT_DETERMINED
    assert store.request_status([STEP_COUNT], [STEP_COUNT, HEART_RATE]) == RequestStatus.SHOULD_REQUEST
    with pytest.raises(BrokerError) as before:
        list(store.query(STEP_COUNT))
    assert (before.value.code, before.value.domain) == (StatusCode.FAILED_PRECONDITION, DomainCode.AUTHORIZATION_NOT_DETERMINED)
    assert store.earliest_authorized_sample_date([STEP_COUNT, HEART_RATE]) == {}

    store.request_authorization(share=[STEP_COUNT], read=[STEP_COUNT, HEART_RATE], timeout=10)

    prompt = next(p for p in agent.prompts if p.app_id == app.app_id)
    assert sorted(prompt.read_types) == sorted([STEP_COUNT, HEART_RATE]) and prompt.share_types == [STEP_COUNT]
    # The prompt carries the call's deadline: 10 s after the call reached the broker.
    assert prompt.deadline is not None and prompt.created < prompt.deadline <= prompt.created + timedelta(seconds=10)
    assert store.authorization_status(STEP_COUNT) == AuthorizationStatus.SHARING_AUTHORIZED
    assert store.authorization_status(HEART_RATE) == AuthorizationStatus.NOT_DETERMINED  # never asked to share
    assert store.request_status([STEP_COUNT], [STEP_COUNT, HEART_RATE]) == RequestStatus.UNNECESSARY
    # Only the limited grant shows, at its exact microsecond; the full one is absent.
    assert store.earliest_authorized_sample_date([STEP_COUNT, HEART_RATE]) == {STEP_COUNT: limited_from}
    assert store.earliest_permitted_sample_date() == datetime(2000, 1, 1, tzinfo=timezone.utc)
    grants = {g.type: g for g in admin.list_grants(app.app_id)}
    assert grants[STEP_COUNT].read == ReadDecision.LIMITED and grants[STEP_COUNT].limited_from == limited_from
    assert grants[HEART_RATE].read == ReadDecision.FULL and grants[HEART_RATE].decided_by == "agent"
    # Asking again for decided types completes at once, without a prompt.
    prompts_before = len(agent.prompts)
    store.request_authorization(read=[STEP_COUNT], timeout=5)
    assert len(agent.prompts) == prompts_before


def test_a_prompt_without_a_timeout_has_no_deadline(
        register: Callable[..., App], connect: Callable[[App], HealthStore], agent: Agent) -> None:
    app = register("untimed", lambda prompt: [TypeDecision(SLEEP_ANALYSIS, read=ReadDecision.DENY)])
    connect(app).request_authorization(read=[SLEEP_ANALYSIS])
    prompt = next(p for p in agent.prompts if p.app_id == app.app_id)
    assert prompt.deadline is None


def test_the_person_cancelling_is_user_canceled(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = connect(register("cancel", lambda prompt: None))
    with pytest.raises(BrokerError) as cancelled:
        store.request_authorization(read=[STEP_COUNT], timeout=10)
    assert (cancelled.value.code, cancelled.value.domain) == (StatusCode.CANCELLED, DomainCode.USER_CANCELED)


def test_many_calls_from_threads_share_one_connection(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = connect(register("threads", grant(read=ReadDecision.LIMITED,
                                               limited_from=datetime(2026, 1, 1, tzinfo=timezone.utc))))
    store.request_authorization(read=[STEP_COUNT], timeout=10)
    failures: List[str] = []

    def worker(number: int) -> None:
        try:
            for index in range(40):
                payload = f"{number}/{index}".encode()
                if index % 4 == 3:
                    dates = store.earliest_authorized_sample_date([STEP_COUNT])
                    if dates != {STEP_COUNT: datetime(2026, 1, 1, tzinfo=timezone.utc)}:
                        failures.append(f"EASD {dates}")
                else:
                    echoed = store.ping(payload, delay=timedelta(milliseconds=index % 3))
                    if echoed != payload:
                        failures.append(f"{payload!r} came back as {echoed!r}")
        except BaseException as error:  # noqa: BLE001 - reported below, with the rest
            failures.append(repr(error))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    # Meanwhile a slow call does not hold back a fast one sent after it.
    order: List[str] = []
    def slow_ping() -> None:
        store.ping(b"slow", delay=1.0)
        order.append("slow")

    slow = threading.Thread(target=slow_ping)
    slow.start()
    time.sleep(0.05)
    store.ping(b"fast")
    order.append("fast")
    slow.join(10)
    for thread in threads:
        thread.join(30)
    assert failures == []
    assert order == ["fast", "slow"]
    assert store.connection.calls_in_flight == 0


def test_deadline_exceeded_and_the_connection_goes_on(register: Callable[..., App], connect: Callable[[App], HealthStore]) -> None:
    store = connect(register("deadline"))
    started = time.monotonic()
    with pytest.raises(BrokerError) as late:
        store.ping(b"late", delay=5, timeout=0.2)
    assert late.value.code == StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 2
    assert store.ping(b"next") == b"next"
    # A stream's deadline covers the whole stream: a slow consumer meets it part way.
    taken = 0
    with pytest.raises(BrokerError) as slow_stream:
        for _ in store.ping_stream(100_000, window=2, timeout=0.3):
            taken += 1
            time.sleep(0.01)
    assert slow_stream.value.code == StatusCode.DEADLINE_EXCEEDED and 0 < taken < 100_000
    assert store.connection.calls_in_flight == 0


def test_closing_the_connection_fails_calls_in_flight(register: Callable[..., App], daemon: Daemon) -> None:
    app = register("close")
    store = HealthStore.connect(app.app_id, app.token, daemon.app_socket)
    errors: List[BrokerError] = []

    def slow_ping() -> None:
        try:
            store.ping(delay=30)
        except BrokerError as error:
            errors.append(error)

    waiter = threading.Thread(target=slow_ping)
    waiter.start()
    while store.connection.calls_in_flight == 0:
        time.sleep(0.01)
    store.close()
    waiter.join(5)
    assert [error.code for error in errors] == [StatusCode.UNAVAILABLE]
    with pytest.raises(BrokerError) as after:
        store.ping()
    assert after.value.code == StatusCode.UNAVAILABLE
