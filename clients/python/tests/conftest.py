"""Fixtures: one real healthbrokerd for the whole session, an admin connection, a consent agent, and
factories for registered apps and their HealthStore connections.

The daemon is ``$HEALTHBROKERD``, else ``<repo>/.build/debug/healthbrokerd`` (``make test`` builds it
first). A missing daemon is an error, not a skip: a suite that skips silently would pass CI untested.
Each test registers apps under fresh ids, so tests share the daemon without seeing each other's grants.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence

import pytest

CLIENT_DIR = Path(__file__).resolve().parents[1]
REPO = CLIENT_DIR.parents[1]
sys.path.insert(0, str(CLIENT_DIR))

from healthbroker import (  # noqa: E402  (after the path insert above)
    BrokerAdmin,
    ConsentAgent,
    HealthStore,
    Prompt,
    ReadDecision,
    ShareDecision,
    TypeDecision,
)
from healthbroker.testing import DaemonFailed, running_daemon  # noqa: E402

Decider = Callable[[Prompt], Optional[Sequence[TypeDecision]]]


class Daemon(NamedTuple):
    process: "subprocess.Popen[bytes]"
    app_socket: str
    admin_socket: str
    log_path: Path


def daemon_path() -> Path:
    return Path(os.environ.get("HEALTHBROKERD") or REPO / ".build" / "debug" / "healthbrokerd")


@pytest.fixture(scope="session")
def daemon() -> Iterator[Daemon]:
    binary = daemon_path()
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no healthbrokerd at {binary}: build it (swift build) or set HEALTHBROKERD", pytrace=False)
    try:
        with running_daemon(binary) as running:
            yield Daemon(running.process, running.app_socket, running.admin_socket, running.log_path)
    except DaemonFailed as failure:
        pytest.fail(str(failure), pytrace=False)


class Agent:
    """A session-wide consent agent that answers each app's prompts with that app's decider."""

    def __init__(self, admin: BrokerAdmin) -> None:
        self.deciders: Dict[str, Decider] = {}
        self.prompts: List[Prompt] = []
        self._lock = threading.Lock()
        self.agent = ConsentAgent(admin, self._decide)

    def _decide(self, prompt: Prompt) -> Optional[Sequence[TypeDecision]]:
        with self._lock:
            self.prompts.append(prompt)
            decide = self.deciders.get(prompt.app_id)
        if decide is None:
            return deny_all(prompt)
        return decide(prompt)


def deny_all(prompt: Prompt) -> List[TypeDecision]:
    return [TypeDecision(t, share=ShareDecision.DENY if t in prompt.share_types else ShareDecision.UNDECIDED,
                         read=ReadDecision.DENY if t in prompt.read_types else ReadDecision.UNDECIDED)
            for t in sorted(set(prompt.share_types) | set(prompt.read_types))]


def grant(share: ShareDecision = ShareDecision.ALLOW, read: ReadDecision = ReadDecision.FULL,
          limited_from: Optional[object] = None) -> Decider:
    """A decider giving every prompted type the same answer (share for share types, read for read types)."""
    def decide(prompt: Prompt) -> List[TypeDecision]:
        return [TypeDecision(t, share=share if t in prompt.share_types else ShareDecision.UNDECIDED,
                             read=read if t in prompt.read_types else ReadDecision.UNDECIDED,
                             limited_from=limited_from if t in prompt.read_types else None)  # type: ignore[arg-type]
                for t in sorted(set(prompt.share_types) | set(prompt.read_types))]
    return decide


@pytest.fixture(scope="session")
def admin(daemon: Daemon) -> Iterator[BrokerAdmin]:
    with BrokerAdmin.connect(daemon.admin_socket) as connection:
        yield connection


@pytest.fixture(scope="session")
def agent(admin: BrokerAdmin) -> Iterator[Agent]:
    agent = Agent(admin)
    yield agent
    agent.agent.stop()
    assert not agent.agent.errors, f"the consent agent failed: {agent.agent.errors}"


_app_numbers = itertools.count(1)


class App(NamedTuple):
    app_id: str
    token: str


@pytest.fixture
def register(admin: BrokerAdmin, agent: Agent) -> Callable[..., App]:
    """``register(name, decide=None)`` → a fresh app (read and share usage texts set) whose prompts
    ``decide`` answers (None: everything denied)."""
    def register_app(name: str = "app", decide: Optional[Decider] = None) -> App:
        app_id = f"test.{name}.{os.getpid()}.{next(_app_numbers)}"
        token = admin.add_app(app_id, name=name, read_usage="to test reads", share_usage="to test writes")
        if decide is not None:
            agent.deciders[app_id] = decide
        return App(app_id, token)
    return register_app


@pytest.fixture
def connect(daemon: Daemon) -> Iterator[Callable[[App], HealthStore]]:
    """``connect(app)`` → a HealthStore closed after the test."""
    stores: List[HealthStore] = []

    def open_store(app: App) -> HealthStore:
        store = HealthStore.connect(app.app_id, app.token, daemon.app_socket)
        stores.append(store)
        return store

    yield open_store
    for store in stores:
        store.close()
