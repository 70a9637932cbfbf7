"""App config for matches (modes register themselves from their own apps' ready())."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"

    def ready(self) -> None:
        from backend.deadlines import deadline_kind_register
        from matches.services import LOBBY_DEADLINES, MATCH_DEADLINES

        deadline_kind_register(MATCH_DEADLINES)  # passed turn deadlines fire with nobody reading
        deadline_kind_register(LOBBY_DEADLINES)  # a queue lobby's fill and an idle lobby's end, likewise
