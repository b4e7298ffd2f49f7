"""The sign-in lockout's idea of who is signing in (django-axes calls ``client_address`` through
AXES_CLIENT_IP_CALLABLE).

Behind reverse proxies every request reaches Django from the last proxy's address, so that address (REMOTE_ADDR)
names nobody: a lockout keyed on it would lock the user out for everyone. Each proxy appends the address it was
connected from to X-Forwarded-For, so with ``count`` trusted proxies in front the client's address is the
count-th entry from the right: the one the outermost proxy appended. Everything to its left was written by the
client, who may write anything, and is never read; a forged entry therefore cannot move an attacker out of his
own lockout, nor put anyone else into one. django-ipware is not installed, so axes' own AXES_IPWARE_* settings
would do nothing; this reads the proxy count from AXES_IPWARE_PROXY_COUNT (env AXES_PROXY_COUNT) instead.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR with no proxy in front, else the address the outermost trusted proxy
    appended to X-Forwarded-For. A request that did not come through all the proxies (too short a header, or
    an entry that is not an address) falls back to REMOTE_ADDR, where it is at least not the client's choice."""
    remote = request.META.get("REMOTE_ADDR") or None
    count = int(getattr(settings, "AXES_IPWARE_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    chain = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    chain = [entry for entry in chain if entry]
    if len(chain) < count:
        return remote
    try:
        return str(ipaddress.ip_address(chain[-count]))
    except ValueError:
        return remote
