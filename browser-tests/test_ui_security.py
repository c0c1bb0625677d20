"""Who may use the page of `healthctl ui`: the secret, Host and Origin checks, loopback only, in
plain HTTP and from a real browser page of another origin."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import time
from typing import Dict, Optional, Tuple
from urllib.parse import urlparse

import pytest

from ui_support import binary, environment
from healthbroker import BrokerAdmin, ReadDecision

STEPS = "HKQuantityTypeIdentifierStepCount"


def request(ui, path: str, method: str = "GET", headers: Optional[Dict[str, str]] = None,
            body: Optional[bytes] = None, host: Optional[str] = "default") -> Tuple[int, Dict[str, str], bytes]:
    """One raw request to the page's server; `host=None` sends no Host header at all."""
    connection = http.client.HTTPConnection("127.0.0.1", ui.port, timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    if host == "default":
        host = f"127.0.0.1:{ui.port}"
    if host is not None:
        connection.putheader("Host", host)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def secret_path(ui) -> str:
    return urlparse(ui.url).path  # /s/SECRET/


def test_the_secret_is_required(ui) -> None:
    good = secret_path(ui)
    assert request(ui, good)[0] == 200
    assert request(ui, good + "api/apps")[0] == 200
    secret = good.split("/")[2]
    assert len(secret) >= 32
    for path in ["/", "/s/", "/s//", f"/s/{secret[:-1]}/", f"/s/{secret}x/", f"/s/{secret}", "/app.js",
                 f"/s/{'0' * len(secret)}/api/apps", f"/x/{secret}/", f"/s/{secret.upper()}/", f"/?k={secret}"]:
        status, _, body = request(ui, path)
        assert status == 403, (path, status, body)
        assert secret.encode() not in body


def test_foreign_host_is_refused(ui) -> None:
    good = secret_path(ui)
    assert request(ui, good, host=f"localhost:{ui.port}")[0] == 200
    for host in ["evil.example", f"evil.example:{ui.port}", f"127.0.0.1:{ui.port + 1}", "127.0.0.1", f"192.168.1.10:{ui.port}"]:
        assert request(ui, good, host=host)[0] == 403, host
    assert request(ui, good, host=None)[0] in (400, 403)


def test_foreign_origin_is_refused_and_changes_need_the_page_origin(ui, admin: BrokerAdmin, register) -> None:
    app = register("Origin Check")
    subprocess.run([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", admin_socket(ui, admin), "grants", "set",
                    app.app_id, "stepCount", "full"], check=True, capture_output=True, env=environment())
    good = secret_path(ui)
    own = f"http://127.0.0.1:{ui.port}"
    assert request(ui, good, headers={"Origin": own})[0] == 200
    for origin in ["http://evil.example", f"http://127.0.0.1:{ui.port + 1}", "null", f"https://127.0.0.1:{ui.port}"]:
        assert request(ui, good, headers={"Origin": origin})[0] == 403, origin
    forget = json.dumps({"app": app.app_id, "type": "stepCount"}).encode()
    json_type = {"Content-Type": "application/json"}
    # A change without an Origin (not from a browser page) or from another one is refused …
    assert request(ui, good + "api/forget", "POST", json_type, forget)[0] == 403
    assert request(ui, good + "api/forget", "POST", {**json_type, "Origin": "http://evil.example"}, forget)[0] == 403
    assert [g.read for g in admin.list_grants(app.app_id)] == [ReadDecision.FULL]
    # … and from the page's own origin it works.
    assert request(ui, good + "api/forget", "POST", {**json_type, "Origin": own}, forget)[0] == 200
    assert admin.list_grants(app.app_id) == []


def admin_socket(ui, admin: BrokerAdmin) -> str:
    arguments = ui.process.args
    return arguments[arguments.index("--admin-socket") + 1]


def test_another_site_in_the_browser_cannot_use_the_page(browser, ui, admin: BrokerAdmin, register) -> None:
    app = register("Cross Site")
    subprocess.run([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", admin_socket(ui, admin), "grants", "set",
                    app.app_id, "stepCount", "full"], check=True, capture_output=True, env=environment())
    # A page of another origin knows the address, secret included, and still cannot read or change.
    tab = browser.new_page("data:text/html,<title>elsewhere</title><p>another site</p>")
    url = ui.url
    body = json.dumps({"app": app.app_id, "type": "stepCount"})
    outcome = tab.evaluate(f"""(async () => {{
        const results = [];
        try {{ const r = await fetch({json.dumps(url + 'api/apps')}); results.push('read ' + r.status); }}
        catch (e) {{ results.push('read blocked'); }}
        try {{ await fetch({json.dumps(url + 'api/forget')}, {{ method: 'POST', mode: 'no-cors',
              headers: {{ 'content-type': 'text/plain' }}, body: {json.dumps(body)} }}); results.push('post sent'); }}
        catch (e) {{ results.push('post blocked'); }}
        return results.join(', ');
    }})()""")
    assert outcome.startswith("read blocked"), outcome
    assert [g.read for g in admin.list_grants(app.app_id)] == [ReadDecision.FULL]


def test_headers_keep_the_secret_in(ui) -> None:
    status, headers, _ = request(ui, secret_path(ui))
    assert status == 200
    assert headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    assert request(ui, secret_path(ui) + "nothing-here")[0] == 404


def listening_addresses(pid: int) -> list:
    """The local addresses of every listening TCP socket of process `pid` (from /proc)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                address, state, inode = fields[1], fields[3], fields[9]
                if state == "0A" and inode in inodes:  # 0A: LISTEN
                    found.append((table, address))
    return found


def test_nothing_listens_beyond_loopback(ui) -> None:
    found = listening_addresses(ui.process.pid)
    # 0100007F is 127.0.0.1 in /proc's byte order.
    assert found == [("/proc/net/tcp", f"0100007F:{ui.port:04X}")], found
    # Through any other address of this machine the port is closed.
    others = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            others.add(info[4][0])
    except socket.gaierror:
        pass
    for address in others - {"127.0.0.1"}:
        if address.startswith("127."):
            continue
        with socket.socket() as probe:
            probe.settimeout(2)
            assert probe.connect_ex((address, ui.port)) != 0, address


def test_port_option_and_a_taken_port(ui_daemon) -> None:
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        free_port = spare.getsockname()[1]
    healthctl = str(binary("healthctl", "HEALTHCTL"))
    process = subprocess.Popen([healthctl, "--admin-socket", ui_daemon.admin_socket, "ui", "--port", str(free_port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment())
    try:
        assert process.stdout is not None
        first = process.stdout.readline().decode().strip()
        assert first.startswith(f"http://127.0.0.1:{free_port}/s/"), first
        # The same port again: refused plainly, exit status 1.
        taken = subprocess.run([healthctl, "--admin-socket", ui_daemon.admin_socket, "ui", "--port", str(free_port)],
                               capture_output=True, env=environment(), timeout=30)
        assert taken.returncode == 1 and taken.stdout == b""
        assert b"cannot listen on 127.0.0.1" in taken.stderr, taken.stderr
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_help_and_no_broker(tmp_path) -> None:
    healthctl = str(binary("healthctl", "HEALTHCTL"))
    shown = subprocess.run([healthctl, "ui", "--help"], capture_output=True, env=environment(), timeout=30)
    assert shown.returncode == 0
    assert b"--port" in shown.stdout and b"--open" in shown.stdout and b"127.0.0.1" in shown.stdout
    missing = subprocess.run([healthctl, "--admin-socket", str(tmp_path / "none.sock"), "ui"], capture_output=True,
                             env=environment(), timeout=30)
    assert missing.returncode == 1 and missing.stdout == b""


def test_a_big_body_is_refused_before_any_handler(ui) -> None:
    own = f"http://127.0.0.1:{ui.port}"
    # Only the headers are sent: h2o answers from the announced length, before reading the body.
    status, _, _ = request(ui, secret_path(ui) + "api/answer", "POST",
                           {"Content-Type": "application/json", "Origin": own, "Content-Length": str(2 << 20)})
    assert status == 413


def test_open_hands_the_address_to_xdg_open(ui_daemon, tmp_path) -> None:
    opened = tmp_path / "opened"
    fake = tmp_path / "bin" / "xdg-open"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\nprintf '%s' \"$1\" > {opened}\n")
    fake.chmod(0o755)
    env = environment()
    env["PATH"] = f"{fake.parent}:{env['PATH']}"
    process = subprocess.Popen([str(binary("healthctl", "HEALTHCTL")), "--admin-socket", ui_daemon.admin_socket, "ui", "--open"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert process.stdout is not None
        first = process.stdout.readline().decode().strip()
        deadline = time.monotonic() + 10
        while not (opened.exists() and opened.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == first
    finally:
        process.terminate()
        process.wait(timeout=10)
