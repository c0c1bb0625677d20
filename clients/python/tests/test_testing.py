"""``healthbroker.testing.running_daemon``: what the project's own fixtures and app developers' tests rely on."""

from __future__ import annotations

import os

import pytest

from conftest import daemon_path
from healthbroker import BrokerAdmin
from healthbroker.testing import DaemonFailed, running_daemon


def test_a_started_daemon_serves_both_sockets_and_its_folder_is_gone_afterwards() -> None:
    with running_daemon(daemon_path()) as daemon:
        assert os.path.exists(daemon.app_socket)
        with BrokerAdmin.connect(daemon.admin_socket) as admin:
            token = admin.add_app("com.example.testing-helper")
            assert token
        folder = daemon.folder
    assert daemon.process.returncode == 0
    assert not folder.exists()


def test_a_daemon_that_refuses_its_arguments_fails_with_its_own_words() -> None:
    with pytest.raises(DaemonFailed) as failure:
        with running_daemon(daemon_path(), arguments=["--no-such-option"]):
            pytest.fail("the daemon should not have started")
    assert "--no-such-option" in str(failure.value)
