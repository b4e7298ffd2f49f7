"""manage.py seed_demo: the demo campaign, its umpire and players, and an open invitation link.

Safe to run again: a re-run creates nothing and prints the same logins. It keeps any password changed
since the first run unless --reset-passwords is given.
"""

from __future__ import annotations

from argparse import ArgumentParser

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from campaign.services import demo_seed


class Command(BaseCommand):
    help = "Create (once) the demo campaign with an umpire, two players and an open invitation link."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--reset-passwords",
            action="store_true",
            help="Put the demo password back on the demo accounts even if it was changed.",
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            seed = demo_seed(reset_passwords=bool(options["reset_passwords"]))
        except PermissionDenied as exc:
            raise CommandError(str(exc)) from exc

        site = settings.SITE_URL
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
