"""``POST /api/v1/streams/ticket/``: a one-time ticket that opens one stream for the caller (SPEC 13)."""
from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.schema import errors
from backend.live.access import TICKET_SECONDS, ticket_issue

TicketOutput: Any = inline_serializer(
    name="StreamTicket",
    fields={
        "ticket": serializers.CharField(
            help_text="Pass as ?ticket= on one stream URL (EventSource sends no headers)."
        ),
        "expires_in": serializers.IntegerField(help_text="Seconds the ticket stays valid (single use)."),
    },
)


class StreamTicketApi(APIView):
    @extend_schema(
        request=None,
        responses={201: TicketOutput, **errors(401)},
        summary="A one-time ticket for a stream URL (?ticket=): single use, 60 s, bound to the caller",
    )
    def post(self, request: Request) -> Response:
        ticket = ticket_issue(int(request.user.pk or 0))  # IsAuthenticated: a user
        return Response({"ticket": ticket, "expires_in": TICKET_SECONDS}, status=status.HTTP_201_CREATED)
