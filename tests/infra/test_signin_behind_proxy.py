"""The sign-in lockout in the production stack: gunicorn behind a small reverse proxy that does what README's TLS
proxy does (appends the address it was connected from to X-Forwarded-For, says the scheme was https). The
browsers connect from different loopback addresses (127.0.0.2, 127.0.0.3), so the proxy sees them apart while
gunicorn sees every request come from the proxy."""

from __future__ import annotations

import http.client
import http.server
import re
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.celery_worker import current_database_url
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.infra.test_production_stack import PROJECT_DIR, VENV_BIN, free_port, process, wait_for

pytestmark = pytest.mark.postgres

ALICE = "127.0.0.2"
BOB = "127.0.0.3"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


class Proxy(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, upstream: int) -> None:
        self.upstream = upstream
        super().__init__(("127.0.0.1", port), ProxyHandler)


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    server: Proxy

    def forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        sent = self.headers.get("X-Forwarded-For")
        headers.pop("X-Forwarded-For", None)
        # As nginx's $proxy_add_x_forwarded_for: whatever the client sent, then the address it connected from.
        headers["X-Forwarded-For"] = f"{sent}, {self.client_address[0]}" if sent else self.client_address[0]
        headers["X-Forwarded-Proto"] = "https"
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.upstream, timeout=30)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            payload = response.read()
        finally:
            upstream.close()
        self.send_response(response.status)
        for key, value in response.getheaders():
            if key.lower() not in HOP_BY_HOP | {"content-length"}:
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    do_GET = forward
    do_POST = forward

    def log_message(self, format: str, *args: object) -> None:  # quiet: the test says what failed
        pass


class Browser:
    """A browser at one loopback address, talking to the proxy; keeps its CSRF cookie by hand (it is Secure,
    and the test speaks plain HTTP to the proxy, as the proxy would to its client over TLS)."""

    def __init__(self, address: str, port: int) -> None:
        self.address = address
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: str = "", headers: dict[str, str] | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.address, 0))
        try:
            sent = {
                "Host": f"127.0.0.1:{self.port}",
                "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                **(headers or {}),
            }
            connection.request(method, path, body=body.encode(), headers=sent)
            response = connection.getresponse()
            payload = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            return response.status, payload
        finally:
            connection.close()

    def sign_in(self, password: str, forged: str = "") -> int:
        _, page = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = f"csrfmiddlewaretoken={token}&username=ada&password={password}"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"https://127.0.0.1:{self.port}",
        }
        if forged:
            headers["X-Forwarded-For"] = forged
        status, _ = self.request("POST", "/accounts/login/", form, headers)
        return status


@pytest.fixture
def site(transactional_db, tmp_path) -> Iterator[int]:
    """gunicorn in the production profile with AXES_PROXY_COUNT=1, behind the proxy; the proxy's port."""
    env = {
        "PATH": str(VENV_BIN) + ":/usr/bin:/bin",
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": current_database_url(),
        "REDIS_URL": "",
        "STATIC_ROOT": str(tmp_path / "static"),
        "AXES_PROXY_COUNT": "1",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
        timeout=180,
    )
    app, front = free_port(), free_port()
    args = [str(VENV_BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{app}", "--workers", "2"]
    with process(args, env, Path(tmp_path / "gunicorn.log")):
        proxy = Proxy(front, app)
        thread = threading.Thread(target=proxy.serve_forever, daemon=True)
        thread.start()
        try:
            wait_for(lambda: Browser(ALICE, front).request("GET", "/healthz")[0] == 200, "gunicorn behind the proxy")
            yield front
        finally:
            proxy.shutdown()
            proxy.server_close()


def test_behind_the_proxy_a_lockout_holds_one_address_and_not_the_user_elsewhere(site, settings):
    # gunicorn keeps the production hashers: the password is stored as it would be there, not in the tests' MD5.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    UserFactory(username="ada")
    alice, bob = Browser(ALICE, site), Browser(BOB, site)

    # Alice's attacker writes a fresh address at the left of X-Forwarded-For each time: it changes nothing.
    codes = [alice.sign_in("wrong", forged=f"192.0.2.{n}") for n in range(5)]

    assert codes == [200, 200, 200, 200, 429]
    assert alice.sign_in(DEFAULT_PASSWORD, forged="192.0.2.99") == 429
    assert alice.sign_in(DEFAULT_PASSWORD) == 429
    assert bob.sign_in(DEFAULT_PASSWORD) == 302  # the same user, from another address, signs in
