"""The public guild list served from cached response bytes, invalidated exactly.

The list (``GET /api/v1/guilds/``) shows the same bytes to every player for the same query, and
changes only when a guild changes (a create, a rename, a close, a join, a leave, a kick, a
disband, a leadership change, a rank, the activity pass, an admin edit), when a leader's
username changes, or when ``GuildRules.min_members`` (the ``is_forming`` flag) changes. So each
web process renders a page once and keeps its bytes until the next such change.

**The generation.** One database row, ``GuildListGeneration`` (pk 1), counts the changes. Every
change calls ``guild_list_changed()``, which adds one to it right after the change's transaction
*commits* (``transaction.on_commit``, a one-row ``UPDATE`` of its own). A page is kept as
``(generation, bytes)`` under a key made of everything its bytes depend on but the data (the query's
four parameters, the negotiated media type, the keys its cursors are signed with, ``FORMAT_VERSION``);
the generation kept with it is the one read *before* the page's query ran (the media type stands in
the key as the raw ``Accept`` header: see ``request_page_key``). A request serves a kept page only if
its generation is the current one. ``min_members`` is data too: a change of ``GuildRules`` counts a
change, and a page is rendered with the current value (``SingletonSettings.cached``, whose token is
read in the same statement as the generation), so it is not in the key (issue 24: a page rendered
from a process's 10-second copy of the rules showed the old ``is_forming`` under the new generation).

The current value costs no round trip of its own: the list view's JWT authentication (simplejwt's,
every check the same, see ``reading_generation``) looks the user up (the one query every
authenticated request makes) with the generation row's value as one more column. A request
authenticated otherwise (a session) reads it with one more query. A JWT request whose page is kept
is answered before DRF's dispatch (``kept_response``): simplejwt's token checks, then one prepared
query of the user's ``is_active`` and the generation.

Why that is exact: a page kept with generation G is served only while G is current, i.e. while no
change has committed and been counted since G was read, and its query ran after G was read, so
it saw every change counted before. A reader whose query ran before a writer's commit keeps its
page under the old generation, which is dead once the writer's count lands, whenever the keeping
happens. A writer's HTTP response goes out after its count, so no request that starts after a
change is reported done is served a page from before it. Reads inside a transaction (``atomic``
blocks: tests, or a service reading the list after writing) bypass the pages both ways: their
snapshot may be older than the generation they read, or hold uncommitted rows.

**Where the pages live.** In each process's memory (``GUILD_LIST_CACHE_PAGES`` pages at most, least
recently used dropped first, each at most ``GUILD_LIST_CACHE_SECONDS`` old): the generation, not the
store, is shared, so every process of every machine sees a change at once, the Celery worker's
activity pass included. Nothing depends on Redis; a cache outage cannot touch the list. The one
thing not repaired: a process that dies between a change's commit and its count (or a database
that refuses the count) leaves that change uncounted; pages then lag it until the next change or
at most ``GUILD_LIST_CACHE_SECONDS`` (the activity fold counts one every 10 minutes).

**Who calls** ``guild_list_changed()``: the receivers below (every ``save``/``delete`` of a
``Guild``, every change of the ``GuildRules`` row (``singleton_settings_changed``: a ``save`` or an
``update``), of a user whose username may have changed, and each ``migrate``), and the writers
that bypass model saves (``guilds.services``: the activity pass, ``guild_rank_add``).
``tests/guilds/test_guild_list_cache.py`` changes every listed field through every writer and checks
the cached list against a fresh one.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.db.models.expressions import RawSQL
from django.http import HttpRequest, HttpResponse
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.settings import api_settings as jwt_settings

from backend.api.authentication import JWTAuthentication as ProjectJWTAuthentication
from backend.sql import concrete_field

logger = logging.getLogger(__name__)

#: Bump when the list's bytes change shape for the same data (a field, a renderer option).
FORMAT_VERSION = 1
#: The attribute of ``request.user`` that the list view's JWT user query fills.
GENERATION_ATTR = "guild_list_generation"

# key -> (generation, monotonic time kept, bytes, content type)
_pages: OrderedDict[str, tuple[int, float, bytes, str]] = OrderedDict()
_lock = threading.Lock()
_fingerprint_memo: dict[str, Any] = {"keys": None, "digest": ""}


def enabled() -> bool:
    return bool(getattr(settings, "GUILD_LIST_CACHE", True))


# --- the generation ------------------------------------------------------------------------------

def guild_list_changed(*, using: str | None = None) -> None:
    """Call in the transaction of every change of what the list shows: once it commits, every
    kept page stops being served. Outside a transaction the count is immediate."""
    transaction.on_commit(_count_change, using=using, robust=True)


def _count_change() -> None:
    from guilds.models import GuildListGeneration

    if not GuildListGeneration.objects.filter(pk=1).update(value=F("value") + 1):
        # A lost row restarts from the clock, not from 1: a page kept at a value of the old row
        # must never match a value of the new one.
        try:
            with transaction.atomic():
                GuildListGeneration.objects.create(pk=1, value=time.time_ns())
        except IntegrityError:  # created meanwhile: count on it
            GuildListGeneration.objects.filter(pk=1).update(value=F("value") + 1)


def _generation_sql() -> str:
    from guilds.models import GuildListGeneration

    return f"SELECT value FROM {connection.ops.quote_name(GuildListGeneration._meta.db_table)} WHERE id = 1"


def current_generation() -> int | None:
    """The generation now (None if the row is missing: then nothing is kept)."""
    from guilds.models import GuildListGeneration

    return GuildListGeneration.objects.filter(pk=1).values_list("value", flat=True).first()


def generation_for(user: Any) -> int | None:
    """The generation read with the caller's user row, or read now."""
    value = getattr(user, GENERATION_ATTR, False)
    return current_generation() if value is False else value


def reading_generation(authenticators: list[Any]) -> list[Any]:
    """Make the API's JWT authentication (simplejwt's, every check the same) read the list's generation in
    its user query, so that serving a kept page needs no round trip beyond the one every request makes.
    The authenticators stay of their class (the OpenAPI schema names the same bearer scheme)."""
    for authenticator in authenticators:
        if isinstance(authenticator, ProjectJWTAuthentication):
            authenticator.also_read(GENERATION_ATTR, _generation_sql())
    return authenticators


# --- the pages -----------------------------------------------------------------------------------

def _fingerprint() -> str:
    """The keys cursors are signed and checked with: a page and its cursors of other keys never matches."""
    keys = (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ()))
    if _fingerprint_memo["keys"] != keys:
        digest = hashlib.blake2b(repr(keys).encode(), digest_size=8).hexdigest()
        _fingerprint_memo.update(keys=keys, digest=digest)
    return str(_fingerprint_memo["digest"])


def page_key(parts: Iterable[object]) -> str:
    """The key of a page: a digest of everything its bytes depend on."""
    material = repr((FORMAT_VERSION, _fingerprint(), *parts)).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(material, digest_size=16).hexdigest()


def cached_bytes(key: str, render: Callable[[], bytes], *, generation: int | None,
                 content_type: str = "application/json") -> bytes:
    """The page under ``key`` if it was kept at ``generation`` (read before this call), else
    ``render()``, kept at ``generation`` (with the ``content_type`` it is served as). ``render``'s
    errors (a 400 for a bad cursor) propagate and keep nothing."""
    if generation is None or not enabled() or connection.in_atomic_block:
        return render()
    kept = _kept(key, generation)
    if kept is not None:
        return kept[0]
    now = time.monotonic()
    body = render()  # after the generation was read: its snapshot includes every change counted before it
    with _lock:
        _pages[key] = (generation, now, body, content_type)
        _pages.move_to_end(key)
        while len(_pages) > settings.GUILD_LIST_CACHE_PAGES:
            _pages.popitem(last=False)
    return body


def _kept(key: str, generation: int) -> tuple[bytes, str] | None:
    """The (bytes, content type) kept under ``key`` at ``generation`` and young enough."""
    now = time.monotonic()
    with _lock:
        kept = _pages.get(key)
        if kept is None or kept[0] != generation or now - kept[1] >= settings.GUILD_LIST_CACHE_SECONDS:
            return None
        _pages.move_to_end(key)
        return kept[2], kept[3]


def request_page_key(request: HttpRequest) -> str:
    """The key of the list page ``request`` asks for. DRF's content negotiation picks the media type
    (e.g. ``application/json; indent=2``) from the ``Accept`` header and the query string's
    ``format`` alone (the view's renderers being fixed), so the raw header stands for it: a kept page
    can be found before any negotiation."""
    return page_key((request.META.get("HTTP_ACCEPT", ""), request.META.get("QUERY_STRING", "")))


# --- a kept page without DRF's dispatch ------------------------------------------------------------

def kept_response(request: HttpRequest) -> HttpResponse | None:
    """The response of a kept page for a GET that DRF would authenticate with simplejwt's JWT
    authentication, else None (then the view's full path answers, errors included).

    What it skips and why the answer is the same: the query's validation (a page is kept only under
    a query string that validated, and validation depends on nothing else: cursors are signed
    without expiry, and the signing keys are in the key), the content negotiation (see
    ``request_page_key``), the permission (``IsAuthenticated``: an authenticated user passes) and
    throttles (the view has none). The authentication is simplejwt's, step by step (header, raw
    token, validated token: its own methods), except the user lookup, which is one prepared query
    (``_user_sql``) of the same row by the same manager, with the generation as one more column:
    it answers only for an existing, active user, i.e. where ``get_user`` returns a user. Anything
    else (no or a bad header, a bad token, an unknown or inactive user, a user id that is not a
    positive 32-bit integer, revocation checks on, a page not kept or of another generation)
    answers None."""
    if not enabled() or connection.in_atomic_block:
        return None
    key = request_page_key(request)
    if key not in _pages:  # nothing to serve: spend no authentication on it
        return None
    generation = _jwt_user_generation(request)
    kept = None if generation is None else _kept(key, generation)
    if kept is None:
        return None
    return HttpResponse(kept[0], content_type=kept[1])


def _jwt_user_generation(request: HttpRequest) -> int | None:
    """The generation, read with the JWT's user row if simplejwt would authenticate ``request``."""
    if jwt_settings.CHECK_REVOKE_TOKEN or getattr(request, "_force_auth_user", None) is not None:
        return None  # a revocation check or a test client's forced user: the full path
    authenticator = _authenticator()
    header = authenticator.get_header(request)  # type: ignore[arg-type]  # it reads only request.META
    if header is None:
        return None
    try:
        raw_token = authenticator.get_raw_token(header)
        if raw_token is None:
            return None
        user_id = authenticator.get_validated_token(raw_token).get(jwt_settings.USER_ID_CLAIM)
    except AuthenticationFailed:  # simplejwt's, InvalidToken included
        return None
    sql = _user_sql()
    if user_id is None or sql is None:
        return None
    id_field = concrete_field(authenticator.user_model, jwt_settings.USER_ID_FIELD)
    try:  # the conversion the ORM's lookup makes (the claim is a string: "42")
        user_pk = id_field.get_prep_value(user_id)
    except (TypeError, ValueError, ValidationError):
        return None
    if type(user_pk) is not int or not 0 < user_pk < 2**31:  # an id the prepared query surely takes as is
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_pk])
        row = cursor.fetchone()
    if row is None or not row[0]:  # no such user, or inactive
        return None
    return None if row[1] is None else int(row[1])


_authenticator_memo: list[JWTAuthentication] = []
_user_sql_memo: dict[tuple[str, str], str | None] = {}
_SENTINEL_ID = -7_777_777


def _authenticator() -> JWTAuthentication:
    if not _authenticator_memo:
        _authenticator_memo.append(JWTAuthentication())
    return _authenticator_memo[0]


def _user_sql() -> str | None:
    """``SELECT is_active, <generation> FROM <user table> WHERE <USER_ID_FIELD> = %s``, compiled once
    per database from simplejwt's own lookup (``user_model.objects`` by ``USER_ID_FIELD``); None if
    that lookup takes other parameters (a manager with its own filter): then no shortcut."""
    memo_key = (connection.alias, connection.vendor)
    if memo_key not in _user_sql_memo:
        users = _authenticator().user_model.objects.filter(**{jwt_settings.USER_ID_FIELD: _SENTINEL_ID})
        with_generation = users.annotate(_generation=RawSQL(_generation_sql(), ()))
        query = with_generation.values_list("is_active", "_generation").query
        sql, params = query.get_compiler(connection=connection).as_sql()
        _user_sql_memo[memo_key] = sql if tuple(params) == (_SENTINEL_ID,) else None
    return _user_sql_memo[memo_key]


def forget_pages() -> None:
    """Drop this process's kept pages (tests; never needed for correctness)."""
    with _lock:
        _pages.clear()


# --- the writers that go through model saves ------------------------------------------------------

def _on_guild_saved_or_deleted(sender: type, **kwargs: Any) -> None:
    guild_list_changed(using=kwargs.get("using"))


def _on_user_saved(sender: type, *, created: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """A leader's username is in the list; a new user leads nothing, a save of other fields changes
    nothing."""
    if created or (update_fields is not None and "username" not in update_fields):
        return
    guild_list_changed(using=kwargs.get("using"))


def _on_migrate(sender: Any, **kwargs: Any) -> None:
    """A migration may rewrite listed columns without saving models."""
    if getattr(sender, "name", None) != "guilds":
        return
    try:
        _count_change()
    except DatabaseError:  # e.g. migrating backwards past the row's table
        logger.warning("guild list generation not counted after migrate", exc_info=True)


def connect_receivers() -> None:
    """Called by ``GuildsConfig.ready``."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_migrate, post_save

    from backend.models import singleton_settings_changed
    from guilds.models import Guild, GuildRules

    post_save.connect(_on_guild_saved_or_deleted, sender=Guild, dispatch_uid="listcache-save-Guild")
    post_delete.connect(_on_guild_saved_or_deleted, sender=Guild, dispatch_uid="listcache-delete-Guild")
    singleton_settings_changed.connect(_on_guild_saved_or_deleted, sender=GuildRules,
                                      dispatch_uid="listcache-rules")
    post_save.connect(_on_user_saved, sender=get_user_model(), dispatch_uid="listcache-user")
    post_migrate.connect(_on_migrate, dispatch_uid="listcache-migrate")
