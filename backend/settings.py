"""Django settings for Deepdelve, driven by environment variables with embedded defaults.

Embedded mode (no variables set): SQLite and a Celery broker on kombu's filesystem
transport, both under ``var/``. Set ``DATABASE_URL`` (postgres://...) and
``CELERY_BROKER_URL`` (redis://...) to run the same code on PostgreSQL and Redis.
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from backend.api.converters import MAX_DB_ID

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DEEPDELVE_DATA_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "embedded-development-key-not-for-production-use-0123456789abcdef"
# The key of the roguelike's chosen seeds (roguelike/mode.py): empty derives one from
# SECRET_KEY; set it to keep every chosen seed's world when SECRET_KEY is rotated.
ROGUELIKE_SEED_KEY = os.environ.get("ROGUELIKE_SEED_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_simplejwt",
    "rest_framework_simplejwt.token_blacklist",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the Swagger UI files, served by the project: /api/docs/ works offline
    "django_celery_beat",
    "backend",
    "players",
    "guilds",
    "dungeons",
    "combat",
    "npcs",
    "matches",
    "labyrinth",
    "roguelike",
    "paper_labyrinth",
    "cell_capture",
    "play",
    "darkness",
    "balance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The request's language from Accept-Language (English unless it asks for Russian): game texts and
    # event sentences are made in it (docs/operations.md, "Languages").
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Below CommonMiddleware: its APPEND_SLASH redirect still sees the JSON 404 of an unknown /api/ route.
    "backend.api.middleware.ApiErrorsMiddleware",
    "play.middleware.PageSecurityHeadersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "backend.urls"
WSGI_APPLICATION = "backend.wsgi.application"
ASGI_APPLICATION = "backend.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "backend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    # Connections are checked before use (issue 11): after a PostgreSQL restart or failover (or
    # pg_terminate_backend) a dead connection is replaced instead of failing the request. With the
    # pool, Django passes psycopg's ConnectionPool.check_connection as the pool's check; without it,
    # a persistent connection is pinged at the start of each request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
        # Django's native psycopg 3 pool: a connection is borrowed per request and returned.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
            "timeout": 10,
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "60"))
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(DATA_DIR / "deepdelve.sqlite3"),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
#: The action's hottest statements as PostgreSQL prepared statements, planned once per session
#: (backend.sql.Prepared). Off behind PgBouncer in transaction mode, which does not keep sessions.
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache (throttling) ---------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Short socket timeouts: an unreachable Redis must cost a request a second, not hang it (the
    # throttles fail open on cache errors, so requests go on answering).
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The guild list's pages, kept as bytes in each web process (guilds/listcache.py, docs/guilds.md):
# at most this many pages per process, each at most this many seconds old.
GUILD_LIST_CACHE = env_bool("GUILD_LIST_CACHE", True)
GUILD_LIST_CACHE_PAGES = int(os.environ.get("GUILD_LIST_CACHE_PAGES", "2000"))
GUILD_LIST_CACHE_SECONDS = int(os.environ.get("GUILD_LIST_CACHE_SECONDS", "60"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
#: The languages a player may read the game in; English is the source language of every message.
LANGUAGES = [("en", "English"), ("ru", "Русский")]
#: Each app keeps its catalogues in <app>/locale/<lang>/LC_MESSAGES/django.po (Django finds them itself).
LOCALE_PATHS: list[Path] = []
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The typed API client's wrapper, served as is at /static/client/ (no build step): the browser pages import
# this very file, so the client the pages run is the one CI type-checks (docs/client.md).
STATICFILES_DIRS = [("client", BASE_DIR / "clients" / "typescript" / "client")]

# Request bodies: the API's are a few hundred bytes; JSON nesting is bounded by the parser.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_REQUEST_BYTES", str(1024 * 1024)))
API_JSON_MAX_DEPTH = int(os.environ.get("API_JSON_MAX_DEPTH", "32"))

# --- REST API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "backend.api.authentication.JWTAuthentication",  # simplejwt's, also reading the settings token
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["backend.api.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "backend.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "auth": os.environ.get("THROTTLE_AUTH", "20/minute"),
        "auth_username": os.environ.get("THROTTLE_AUTH_USERNAME", "20/hour"),
    },
    # Proxies in front of the server that append to X-Forwarded-For (0: trust no forwarded header).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "UNAUTHENTICATED_USER": None,
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=int(os.environ.get("JWT_ACCESS_MINUTES", "30"))),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=int(os.environ.get("JWT_REFRESH_DAYS", "7"))),
    "UPDATE_LAST_LOGIN": False,
    # A refresh gives a new refresh token and blacklists the old one: a stolen refresh token works
    # once, and its reuse after the owner refreshed is refused (token_blacklist app).
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Deepdelve API",
    "DESCRIPTION": "The authoritative game master of the Deepdelve cooperative dungeon crawler.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One named enum per choice set that appears under a shared field name ("kind", "status").
    "ENUM_NAME_OVERRIDES": {
        "DungeonKindEnum": "dungeons.models.DungeonKind",
        "RunKindEnum": [("ordinary", "Ordinary"), ("frenzy", "Frenzy")],
        "RoomKindEnum": "dungeons.models.RoomKind",
        "RunStatusEnum": "dungeons.models.RunStatus",
        "MemberStatusEnum": "dungeons.models.MemberStatus",
        "StoryItemEnum": "dungeons.models.StoryItem",
        "CombatantKindEnum": ["player", "enemy", "npc"],
        "BattleActionKindEnum": ["attack", "drink", "switch_weapon", "skip", "flee"],
        "MatchStatusEnum": "matches.models.MatchStatus",
        "NoticeKindEnum": "players.models.NoticeKind",
        "DarknessRoomKindEnum": "dungeons.serializers.MAZE_ROOM_KINDS",
    },
    # Every mode's settings, view, action and event as named components, referenced by the match schemas;
    # a battle's events and a run's log entries from their typed classes.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "matches.openapi.mode_schemas_hook",
        "combat.openapi.battle_schemas_hook",
        "dungeons.openapi.run_schemas_hook",
        "backend.api.schema.no_empty_required_hook",
    ],
    # <id:...> path parameters (backend.api.converters): positive 64-bit object ids.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 1,
                                        "maximum": MAX_DB_ID}},
}

# --- Deadlines -----------------------------------------------------------------------------
# The deadline clock inside each ASGI server process (backend/deadlines.py, started by backend/asgi.py's
# lifespan): a passed turn deadline is applied with nobody reading. Off: only reads and actions apply them.
DEADLINE_CLOCK = env_bool("DEADLINE_CLOCK", True)

# --- Celery -------------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = DATA_DIR / "broker"
    for _sub in ("out", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, str | int] = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "data_folder_processed": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # Only beat publishes (the periodic tasks): an unreachable broker fails fast, and the next
    # tick of the schedule sends the work again.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2}
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Production hardening (effective when DEBUG is off) -----------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
