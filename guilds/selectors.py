"""Reads about guilds: the public list, details with members, pending requests."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Expression, F, FilteredRelation, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Lower
from django.utils import timezone

from backend.api.pagination import Page, keyset_page
from backend.errors import NotFound
from guilds.models import ActivityFold, Application, Guild, GuildRules, Invitation, Membership, RequestStatus
from players.models import Player

# ordering parameter -> (sort key, descending); every key has a (key, id) index: the name and member
# orderings partial ones on guilds_guild, the activity orderings the current slot's
# guild_activity_list_<slot> on guilds_guildactivity (its (activity_<slot>, guild_id); see guild_list).
GUILD_ORDERINGS: dict[str, tuple[Expression | str, bool]] = {
    "name": (Lower("name"), False),
    "-name": (Lower("name"), True),
    "members_count": ("members_count", False),
    "-members_count": ("members_count", True),
    "activity": ("activity", False),
    "-activity": ("activity", True),
}
DEFAULT_GUILD_ORDERING = "-activity"


def listed_guilds() -> QuerySet[Guild]:
    """The guilds a player may browse to join: open and not disbanded."""
    return Guild.objects.filter(is_open=True, disbanded_at__isnull=True)


# The list item's columns (output name -> source); a JOIN for the leader's name and one for the
# activity row, no model instances.
GUILD_LIST_COLUMNS: dict[str, str] = {
    "id": "id", "name": "name", "leader_id": "leader_id", "leader_username": "leader__user__username",
    "members_count": "members_count", "activity": "activity",
    "activity_computed_at": "activity_row__computed_at", "rank": "rank", "is_open": "is_open",
}


def with_activity(queryset: QuerySet[Guild], *, slot: str | None = None) -> QuerySet[Guild]:
    """``queryset`` with ``activity`` (the current slot's ``GuildActivity.activity_<slot>``, read from
    ``ActivityFold`` unless given) to sort, filter and read by; an inner join: every guild has its
    activity row (made with the guild)."""
    slot = slot or ActivityFold.current_slot()
    # The annotation takes the name of Guild.activity (a property) on purpose: the list reads values.
    return queryset.filter(activity_row__isnull=False).annotate(  # type: ignore[no-redef]
        activity=F(f"activity_row__activity_{slot}"))


def with_activity_slot(queryset: QuerySet[Guild]) -> QuerySet[Guild]:
    """``queryset`` annotated with the current activity slot in the same query, for
    ``Guild.activity`` of the instances it loads (no query of its own)."""
    current = ActivityFold.objects.filter(pk=1).values("slot")[:1]
    return queryset.annotate(activity_slot=Subquery(current))


def guild_list(*, ordering: str = DEFAULT_GUILD_ORDERING, search: str = "", cursor: str | None = None,
               page_size: int = 20, min_members: int | None = None) -> Page:
    """One page of the public list as plain dicts with the list item's fields (``is_forming`` below
    ``min_members``, by default the rules' current value)."""
    key, descending = GUILD_ORDERINGS[ordering]
    qs = with_activity(listed_guilds())
    if search:
        qs = qs.filter(name__icontains=search)
    # By activity, ties break on the activity row's guild_id (= the guild's id): the row comparison
    # of a cursor then names guild_activity_list_<slot>'s columns and is its index condition.
    pk = "activity_row__guild_id" if key == "activity" else "pk"
    page = keyset_page(qs, key=key, descending=descending, cursor=cursor, page_size=page_size,
                       values=GUILD_LIST_COLUMNS, pk=pk)
    if min_members is None:
        min_members = guild_min_members()
    for row in page.items:
        row["leader"] = row.pop("leader_id")  # 'leader' names a model field, so it cannot be an alias
        row["is_forming"] = row["members_count"] < min_members
    return page


def guild_get(*, guild_id: int) -> Guild:
    """A living guild with its leader and current members (closed guilds are visible by id)."""
    members = (Membership.objects.filter(left_at__isnull=True).select_related("player__user")
               .order_by("joined_at", "pk"))
    guild = (with_activity_slot(Guild.objects.filter(pk=guild_id, disbanded_at__isnull=True))
             .select_related("leader__user", "activity_row")
             .prefetch_related(Prefetch("memberships", queryset=members, to_attr="current_memberships"))
             .first())
    if guild is None:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    return guild


def guild_min_members() -> int:
    return GuildRules.cached().min_members


def guild_pending_applications(*, guild: Guild) -> QuerySet[Application]:
    return (guild.applications.filter(status=RequestStatus.PENDING).select_related("player__user")
            .order_by("created_at", "pk"))


def player_current_guild(*, player: Player) -> Guild | None:
    membership = (Membership.objects.filter(player=player, left_at__isnull=True).select_related("guild")
                  .first())
    return membership.guild if membership else None


def with_current_guild(queryset: QuerySet[Any], player: str) -> QuerySet[Any]:
    """``player_current_guild`` joined into a read of rows that name a player (``player``: the path to
    it, e.g. ``"player"``): each row gets ``current_guild_id`` and ``current_guild_rank`` (None when
    the player is in no guild). One row per row read: a player has at most one current membership."""
    annotated: QuerySet[Any] = queryset.annotate(
        current_membership=FilteredRelation(f"{player}__memberships",
                                            condition=Q(**{f"{player}__memberships__left_at__isnull": True})),
        current_guild_id=F("current_membership__guild_id"),
        current_guild_rank=F("current_membership__guild__rank"),
    )
    return annotated


def player_pending_invitations(*, player: Player) -> QuerySet[Invitation]:
    return (Invitation.objects.filter(player=player, status=RequestStatus.PENDING)
            .select_related("guild", "invited_by__user").order_by("-created_at", "-pk"))


#: How long a rejection (and its reason) stays in the applicant's list of applications.
REJECTIONS_SHOWN_DAYS = 30


def player_applications(*, player: Player, now: datetime | None = None) -> QuerySet[Application]:
    """The applicant's view: pending applications and those rejected in the last 30 days, newest first."""
    since = (now or timezone.now()) - timedelta(days=REJECTIONS_SHOWN_DAYS)
    return (Application.objects
            .filter(Q(status=RequestStatus.PENDING) | Q(status=RequestStatus.REJECTED, decided_at__gte=since),
                    player=player)
            .select_related("guild", "player__user").order_by("-created_at", "-pk"))
