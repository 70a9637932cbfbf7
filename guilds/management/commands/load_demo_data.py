"""Load a small playable world for the embedded server (idempotent): an admin and a few guilds."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from guilds.models import Guild
from guilds.services import (
    guild_activity_recompute_all,
    guild_application_approve,
    guild_application_create,
    guild_create,
    guild_person_runs_record,
)
from players.models import Player
from players.services import player_register

DEMO_PASSWORD = "deepdelve-demo"
GUILDS = {
    "Lanternbearers": ["ayla", "borin", "cassia", "dorn"],
    "Deep Wardens": ["eris", "fenn", "gwyn"],
    "Moss and Iron": ["hale", "ilse"],
}


class Command(BaseCommand):
    help = "Create the 'demo' admin (password 'demo') and a few demo players and guilds, once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-demo-superuser", action="store_true",
            help="Load even though DEBUG is off: creates a superuser whose password is 'demo'.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_demo_superuser"]:
            # A production database must never get an admin whose password is public (issue 11).
            raise CommandError("DEBUG is off: refusing to create the demo/demo superuser and demo players "
                               "with a published password. Pass --allow-demo-superuser to load them anyway.")
        user_model = get_user_model()
        if not user_model.objects.filter(username="demo").exists():
            admin_user = user_model.objects.create_superuser("demo", "demo@example.invalid", "demo")
            Player.objects.create(user=admin_user, display_name="demo")
        if Guild.objects.exists():
            self.stdout.write("Demo data already present.")
            return
        now = timezone.now()
        for day_offset, (guild_name, names) in enumerate(GUILDS.items()):
            players = [player_register(username=name, password=DEMO_PASSWORD) for name in names]
            guild = guild_create(player=players[0], name=guild_name,
                                 description=f"The {guild_name} of the deep.")
            for member in players[1:]:
                application = guild_application_create(player=member, guild_id=guild.pk)
                guild_application_approve(actor=players[0], guild_id=guild.pk, application_id=application.pk)
            for back in range(len(names) * 2):
                guild_person_runs_record(guild_id=guild.pk, at=now - timedelta(days=back % 3 + day_offset),
                                         count=len(names))
        guild_activity_recompute_all()
        self.stdout.write(self.style.SUCCESS(
            f"Demo data loaded: admin demo/demo; players {', '.join(n for v in GUILDS.values() for n in v)} "
            f"(password {DEMO_PASSWORD!r})."))
