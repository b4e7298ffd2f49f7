"""manage.py seed_demo: the demo campaign, its umpire and players, and an open invitation link.

Safe to run again: a re-run creates nothing and prints the same logins. It keeps any password changed
since the first run unless --reset-passwords is given. The links it prints start with --base-url (`make run`
passes the host and port it serves on), else with SITE_URL.
"""

from __future__ import annotations

from argparse import ArgumentParser
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from strategic_map.demo import demo_seed

# Addresses a server listens on but a browser cannot be sent to (and ALLOWED_HOSTS would refuse as a Host):
# the links name the loopback address instead.
WILDCARD_HOSTS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def base_url(url: str) -> str:
    """--base-url as the printed links start: scheme://host[:port], nothing else."""
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError as exc:
        raise CommandError(f"--base-url has a bad port: {url!r}") from exc
    extras = parts.username or parts.path.strip("/") or parts.query or parts.fragment
    if parts.scheme not in {"http", "https"} or not parts.hostname or extras:
        raise CommandError(f"--base-url must look like http://127.0.0.1:8000, not {url!r}")
    host = WILDCARD_HOSTS.get(parts.hostname, parts.hostname)
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + ("" if port is None else f":{port}")


class Command(BaseCommand):
    help = "Create (once) the demo campaign with an umpire, two players and an open invitation link."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--reset-passwords",
            action="store_true",
            help="Put the demo password back on the demo accounts even if it was changed.",
        )
        parser.add_argument(
            "--base-url",
            default=None,
            help="Where the site is served, e.g. http://127.0.0.1:8001 (default: SITE_URL); the links start with it.",
        )

    def handle(self, *args: object, **options: object) -> None:
        # Checked before anything is written: a mistyped address is not worth a half-printed seed.
        site = base_url(str(options["base_url"])) if options["base_url"] else settings.SITE_URL
        try:
            seed = demo_seed(reset_passwords=bool(options["reset_passwords"]))
        except PermissionDenied as exc:
            raise CommandError(str(exc)) from exc

        self.stdout.write(self.style.SUCCESS(f"Campaign: {seed.campaign.name}"))
        self.stdout.write(f"  {site}{reverse('campaign_detail', kwargs={'slug': seed.campaign.slug})}")
        self.stdout.write(f"Sign in at {site}{reverse('login')} as:")
        for login in seed.logins:
            self.stdout.write(f"  {login.username:<8} password {login.password:<14} {login.role}")
        if not all(login.password_set for login in seed.logins):
            self.stdout.write(
                "  (accounts that already existed keep their passwords; --reset-passwords restores the demo one)"
            )
        invitation = seed.invitation
        invitation_url = reverse("campaign_join", kwargs={"token": invitation.token})
        self.stdout.write(
            f"Invitation link ({invitation.role}, {invitation.uses}/{invitation.max_uses} used): {site}{invitation_url}"
        )
        self.stdout.write(f"Created {seed.created} new record(s)." if seed.created else "Nothing new to create.")
