"""The public guild list served from cached response bytes, invalidated exactly.

The list (``GET /api/v1/guilds/``) shows the same bytes to every player for the same query, and
changes only when a guild changes (a create, a rename, a close, a join, a leave, a kick, a
disband, a leadership change, a rank, the activity pass, an admin edit), when a leader's
username changes, or when ``GuildRules.min_members`` (the ``is_forming`` flag) changes. So a page
is rendered once and its bytes kept in the Django cache (Redis in production) until the next such
change.

**The generation.** One cache key, ``GENERATION_KEY``, holds a random token. Every change calls
``guild_list_changed()``, which replaces the token with a fresh one once the change's transaction
*commits* (``transaction.on_commit``). A page is stored as ``(token, bytes)`` under a key made of
everything the response depends on (the query's four parameters, the negotiated media type, the
``min_members`` it was rendered with, the signing keys of its cursors, ``FORMAT_VERSION``); the
token stored with it is the one read *before* the page's query ran. A reader fetches the token
and the page in one round trip (``get_many``: Redis ``MGET``, atomic) and serves the bytes only if
the page's token is the current one.

Why that is exact: a page stored with token T is served only while T is current, i.e. while no
change has committed since T was set, and its query ran after T was read, so it saw every change
committed before T was set. A reader whose query ran before a writer's commit stores its page
with the old token, which is dead once the writer's on-commit replacement lands, whenever the
store happens. A writer's own HTTP response goes out after its replacement, so no request that
starts after a change is reported done can be served a page from before it. Tokens are random (never
reused), so an evicted or flushed generation key starts a fresh token instead of bringing an old
one back. Reads inside a transaction (``atomic`` blocks: tests, or a service reading the list
after writing) bypass the cache both ways: their snapshot may be older than the token they would
read, or hold uncommitted rows.

**Failures.** Any cache error makes the list compute the page directly (and log a warning);
after one, this process leaves the cache alone for ``BREAKER_SECONDS`` so a down Redis costs one
connection timeout, not one per request. A replacement that fails is remembered and retried
before this process uses the cache again. What cannot be repaired: a writer that cannot reach
Redis while readers in other processes can. Their pages of the old token are then served until
the page TTL (``GUILD_LIST_CACHE_SECONDS``, default 60) expires them, which bounds the staleness.

**Where it is on.** ``settings.GUILD_LIST_CACHE``: on by default when ``REDIS_URL`` is set (a
cache every process shares). A process-local cache (locmem, the embedded default) cannot carry a
token change from the Celery worker's activity pass or another web process, so the list is not
cached there unless the setting turns it on (a single-process deployment may). The invalidation
itself always runs: it costs one cache write per changing transaction.

**Who calls** ``guild_list_changed()``: the receivers below (every ``save``/``delete`` of a
``Guild``, of the ``GuildRules`` row, of a user whose username may have changed, and each
``migrate``), and the writers that bypass model saves (``guilds.services``: the activity pass,
``guild_rank_add``). ``tests/guilds/test_guild_list_cache.py`` changes every listed field through
every writer and checks the cached list against a fresh one.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction

logger = logging.getLogger(__name__)

GENERATION_KEY = "guilds:list:generation"
PAGE_KEY_PREFIX = "guilds:list:page:"
#: Bump when the list's bytes change shape for the same data (a field, a renderer option): pages of
#: the old code then stop matching without a flush.
FORMAT_VERSION = 1
#: After a cache error this process computes pages directly for this long before trying again.
BREAKER_SECONDS = 5.0

_state: dict[str, Any] = {"down_until": 0.0, "owed": False, "keys": None}


def enabled() -> bool:
    return bool(getattr(settings, "GUILD_LIST_CACHE", False))


def guild_list_changed(*, using: str | None = None) -> None:
    """Call in the transaction of every change of what the list shows: once it commits, every
    cached page stops being served. Outside a transaction the replacement is immediate."""
    transaction.on_commit(_new_generation, using=using, robust=True)


def _new_generation() -> bool:
    """Replace the generation token; on failure remember it is owed (this process will not use
    the cache until it is paid)."""
    try:
        cache.set(GENERATION_KEY, secrets.token_hex(12), timeout=None)
    except Exception:  # noqa: BLE001 - any cache backend error (redis.ConnectionError, timeouts)
        _state["owed"] = True
        _trip()
        logger.error("guild list cache: could not replace the generation; pages of other processes "
                     "may be served until they expire (GUILD_LIST_CACHE_SECONDS)", exc_info=True)
        return False
    _state["owed"] = False
    return True


def _trip() -> None:
    _state["down_until"] = time.monotonic() + BREAKER_SECONDS


def _signing_fingerprint() -> str:
    """The keys cursors are signed and checked with: a page (and its cursors) of other keys never matches."""
    keys = (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ()))
    cached = _state["keys"]
    if cached is None or cached[0] != keys:
        cached = (keys, hashlib.blake2b(repr(keys).encode(), digest_size=8).hexdigest())
        _state["keys"] = cached
    return str(cached[1])


def page_key(parts: Iterable[object]) -> str:
    """The cache key of a page: a digest of everything its bytes depend on."""
    material = repr((FORMAT_VERSION, _signing_fingerprint(), *parts)).encode("utf-8", "surrogatepass")
    return PAGE_KEY_PREFIX + hashlib.blake2b(material, digest_size=16).hexdigest()


def cached_bytes(key: str, render: Callable[[], bytes]) -> bytes:
    """The page under ``key`` if it belongs to the current generation, else ``render()`` (stored).

    ``render``'s own errors (a 400 for a bad cursor) propagate and store nothing; cache errors never
    do: the page is then rendered directly.
    """
    if not enabled() or connection.in_atomic_block or time.monotonic() < _state["down_until"]:
        return render()
    generation: str | None
    try:
        if _state["owed"] and not _new_generation():
            return render()
        found = cache.get_many([GENERATION_KEY, key])
        generation = found.get(GENERATION_KEY)
        if generation is None:  # never set, evicted or flushed: start a fresh token
            fresh = secrets.token_hex(12)
            generation = fresh if cache.add(GENERATION_KEY, fresh, timeout=None) else cache.get(GENERATION_KEY)
        else:
            page = found.get(key)
            if isinstance(page, tuple) and len(page) == 2 and page[0] == generation:
                return bytes(page[1])
    except Exception:  # noqa: BLE001 - any cache backend error
        _trip()
        logger.warning("guild list cache unavailable; rendering the page directly", exc_info=True)
        return render()
    body = render()  # after reading the generation: its snapshot includes every change before it
    if generation is not None:
        try:
            cache.set(key, (generation, body), timeout=settings.GUILD_LIST_CACHE_SECONDS)
        except Exception:  # noqa: BLE001
            _trip()
            logger.warning("guild list cache unavailable; page not stored", exc_info=True)
    return body


# --- the writers that go through model saves ------------------------------------------------------

def _on_guild_saved_or_deleted(sender: type, **kwargs: Any) -> None:
    guild_list_changed(using=kwargs.get("using"))


def _on_user_saved(sender: type, *, created: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """A leader's username is in the list; a new user leads nothing, a save of other fields changes nothing."""
    if created or (update_fields is not None and "username" not in update_fields):
        return
    guild_list_changed(using=kwargs.get("using"))


def _on_migrate(sender: Any, **kwargs: Any) -> None:
    """A migration may rewrite listed columns without saving models; never fails the migrate."""
    _new_generation()


def connect_receivers() -> None:
    """Called by ``GuildsConfig.ready``."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_migrate, post_save

    from guilds.models import Guild, GuildRules

    for model in (Guild, GuildRules):
        post_save.connect(_on_guild_saved_or_deleted, sender=model, dispatch_uid=f"listcache-save-{model.__name__}")
        post_delete.connect(_on_guild_saved_or_deleted, sender=model,
                            dispatch_uid=f"listcache-delete-{model.__name__}")
    post_save.connect(_on_user_saved, sender=get_user_model(), dispatch_uid="listcache-user")
    post_migrate.connect(_on_migrate, dispatch_uid="listcache-migrate")
