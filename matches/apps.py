"""App config for matches (modes register themselves from their own apps' ready())."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"

    def ready(self) -> None:
        from backend.deadlines import deadline_kind_register
        from matches.services import MATCH_DEADLINES

        deadline_kind_register(MATCH_DEADLINES)  # passed turn deadlines fire with nobody reading
