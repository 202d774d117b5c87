"""Settings, read from environment variables (the README's tables list them).

Embedded default (nothing to install): SQLite in ``var/`` (WAL, immediate transactions, so
concurrent writers wait instead of failing) and Celery in eager mode; ``scripts/setup-and-run``
adds a worker on a filesystem broker in ``var/`` so printing leaves the request there too.
Production: ``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis) switch to the real
services; more web and worker processes scale it out (``scripts/serve``, ``compose.yaml``).

Debug is off unless ``DJANGO_DEBUG=true``, and then only for local host names and clients
(``config.middleware.LocalDebugOnlyMiddleware``). With debug off and a public host name the
site expects HTTPS behind a proxy (secure cookies, HSTS, redirect); ``DJANGO_HTTPS=false``
turns that off for a LAN-only install at the venue.
"""
from __future__ import annotations

import os
import secrets
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TRUCO_VAR_DIR", BASE_DIR / "var"))

#: host names that reach only this machine
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1", "testserver")


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _is_local(host: str) -> bool:
    return host in LOCAL_HOSTS or host.endswith(".localhost") or host.startswith("127.")


def _secret_key() -> str:
    """``DJANGO_SECRET_KEY``, or a random key kept in a file: ``DJANGO_SECRET_KEY_FILE`` (named on purpose:
    a secret, a shared volume, this install's own on a one-machine LAN site) or ``var/secret_key`` (this
    machine only: production requires one of the first two, ``config.checks``, config.E001)."""
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(os.environ.get("DJANGO_SECRET_KEY_FILE", "").strip() or VAR_DIR / "secret_key")
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        # written whole, then linked in place: a process starting at the same moment (a test process,
        # web or Celery worker) never reads an empty file; the first key linked is everyone's
        draft = path.with_name(f".secret_key.{os.getpid()}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:  # another process wrote it first
            pass
        finally:
            draft.unlink()
        return path.read_text(encoding="ascii").strip()


ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
DEBUG = env_bool("DJANGO_DEBUG", False)
if DEBUG and not all(_is_local(host) for host in ALLOWED_HOSTS):
    # Django's debug pages print settings and the environment: never to the network.
    raise RuntimeError(
        "DJANGO_DEBUG=true is for this machine only: DJANGO_ALLOWED_HOSTS must name local hosts "
        f"(got {', '.join(ALLOWED_HOSTS)}). Leave DJANGO_DEBUG unset to serve other machines."
    )
SECRET_KEY = _secret_key()
#: the key came from DJANGO_SECRET_KEY or a file named by DJANGO_SECRET_KEY_FILE, not one made in var/ on first
#: use (production requires one of them: config.checks, config.E001)
SECRET_KEY_FROM_ENVIRONMENT = bool(os.environ.get("DJANGO_SECRET_KEY", "").strip())
SECRET_KEY_FILE_CHOSEN = bool(os.environ.get("DJANGO_SECRET_KEY_FILE", "").strip())
#: earlier secret keys, still accepted while a new one takes over (sessions, password links, and the printed table
#: and captain links, whose tokens are sealed and looked up by keys derived from the secret key: tables.token_keys)
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS")
#: the machines serving this site (web, worker, beat), the same list on every one: more than one wants a
#: shared media store and a shared cache (config.checks, config.E002 and E003). Empty: this machine alone.
SITE_HOSTS = env_list("TRUCO_HOSTS")

# -- HTTPS and the proxy in front ---------------------------------------------------------------
#: behind HTTPS unless debug, a local-only host list, or DJANGO_HTTPS=false (a LAN at the venue)
HTTPS = env_bool("DJANGO_HTTPS", not DEBUG and not all(_is_local(host) for host in ALLOWED_HOSTS))
#: the header the TLS proxy sets, "Header-Name: value" (empty: no proxy says so)
_proxy_header = os.environ.get("DJANGO_PROXY_SSL_HEADER", "X-Forwarded-Proto: https" if HTTPS else "")
if _proxy_header.strip():
    _name, _sep, _value = _proxy_header.partition(":")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _name.strip().upper().replace("-", "_"), _value.strip())
#: how many proxies in front append to X-Forwarded-For (0: the client is REMOTE_ADDR)
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "1" if HTTPS else "0"))
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS") or [
    f"{'https' if HTTPS else 'http'}://{host}" for host in ALLOWED_HOSTS
    if host not in LOCAL_HOSTS and not host.startswith(".") and host != "*"
]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and env_bool("DJANGO_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from the project: no CDN at the venue
    "axes",
    "storages",
    # ours, lowest layer first (docs/architecture.md); config: the site's own system checks
    "config.checks.SiteConfig",
    "people",
    "events",
    "draw",
    "tables",
    "scoring",
    "tournaments",
    "public",  # the public pages, kept live
    "printing",
    "seasons",
    "teams",
    "finance",
    "room",  # after teams: after a decision on results, the team matches (a negra), then the room's calls
    "fairplay",  # the fair-play flags for an event's referees and organizers
    "referee",
]

MIDDLEWARE = [
    "config.logs.RequestLogMiddleware",
    # /healthz and /readyz answered whatever the Host (a load balancer asks by address): above Django's
    # host check (SecurityMiddleware, CommonMiddleware); they reveal nothing (config.middleware)
    "config.middleware.HealthProbeMiddleware",
    "config.middleware.LocalDebugOnlyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and JSON compressed (static files: WhiteNoise, above, serves its own .gz/.br and never reaches here).
    # Above every middleware that reads or writes the body (the public pages' cache keeps the plain page);
    # a strong ETag becomes weak (W/"…"), which If-None-Match compares weakly: 304s hold. BREACH: Django's
    # compression adds up to 100 random bytes to each answer's gzip header, and CSRF tokens are masked per
    # request; docs/dashboard.md ("Compression") says what else keeps the pages carrying secrets safe.
    "django.middleware.gzip.GZipMiddleware",
    "config.api.EdgeMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # above the page cache: a page it serves (or a 304) gets the headers too, with the reader's nonce
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "public.conditional.PublicConditionalGetMiddleware",
    # last: turns a locked-out login into the lockout answer
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): only this site's scripts, inline ones by nonce
# (``<script nonce="{{ request.csp_nonce }}">``); styles may be inline; no framing.
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite unless DATABASE_URL names another (PostgreSQL in production).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        # a connection kept from an earlier request is tried (SELECT 1) before a request uses it: one that
        # PostgreSQL ended (a stop, a restart, a failover) is reopened instead of answering a false 503 on
        # the first request of each web thread once the database is back
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # a database that does not answer (a host gone, packets dropped) fails a request within seconds,
    # answered 503 (config.outage), instead of holding a web thread for the system's TCP timeout
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "5")))
    # a web process's bounded pool and each kind of process's statement timeout (config/database.py)
    from config.database import configure_postgresql
    from config.logs import process_name

    configure_postgresql(DATABASES["default"], process_name(), os.environ)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers (two tables entering hands, the print worker) wait for each other:
    # IMMEDIATE takes the write lock at BEGIN, so the services' read-then-write never has to
    # upgrade a read lock (which fails at once with "database is locked"); WAL lets readers
    # go on while one writes.
    # config/sqlite: each writer waits its turn at one pace (not SQLite's backoff, which let late comers
    # overtake) and WAL checkpoints run in a thread of their own, off the requests' COMMIT.
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # the tests' database stays in memory, as with Django's own ENGINE name (which pytest-django looks for)
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", ":memory:")
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "timeout": int(os.environ.get("SQLITE_TIMEOUT", "30")),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # first: refuses a locked-out account and address before the password is checked
    "config.auth.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes), kept in the database so that every process sees it:
# after AXES_FAILURE_LIMIT wrong passwords for one account from one address, that account
# is refused from that address (even with the right password) for AXES_COOLOFF_TIME hours.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "config.auth.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", _("Português (Brasil)")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TZ_NAME", "America/Sao_Paulo")
USE_I18N = True
USE_THOUSAND_SEPARATOR = True  # 1.234 in pt-BR counts; ids, tables and form values use |unlocalize
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", VAR_DIR / "static"))
MEDIA_URL = "media/"
#: a folder every host mounts (NFS, ...), declared shared: the media of several hosts (config.E002)
SHARED_MEDIA_ROOT = os.environ.get("TRUCO_SHARED_MEDIA_ROOT", "").strip()
MEDIA_ROOT = Path(SHARED_MEDIA_ROOT or os.environ.get("DJANGO_MEDIA_ROOT", VAR_DIR / "media"))
# Static files are served by WhiteNoise (compressed, hashed names cached for a year after
# collectstatic; straight from the apps before it). Generated files (print jobs' PDFs) go
# through the default storage: the local disk, or an S3-compatible bucket when
# TRUCO_S3_BUCKET is set, so that a worker and a web process on other machines share them.
WHITENOISE_USE_FINDERS = True
try:  # WhiteNoise warns at every start when the folder is missing (before collectstatic)
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
except OSError:
    pass
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
}
if os.environ.get("TRUCO_S3_BUCKET"):
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["TRUCO_S3_BUCKET"],
            "endpoint_url": os.environ.get("TRUCO_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("TRUCO_S3_REGION") or None,
            "location": os.environ.get("TRUCO_S3_PREFIX", ""),
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
    "tournaments.pins.PinHasher",  # players' PINs: only for them
]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    # Sessions and table links; no HTTP Basic (only the hand validator keeps it, NUL-safe): passwords do
    # not travel with every request.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tables.links.SessionUnlessTable",  # the session, unless the request names its table
        "tables.links.TableAuthentication",  # "Authorization: Table <token>": a table link
        "scoring.api_tokens.TokenAuthentication",  # "Authorization: Token <key>": a user's script
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # The API's edge (config/api.py): bounded JSON, JSON answers, one error shape.
    "DEFAULT_PARSER_CLASSES": [
        "config.api.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.api.JSONFirstNegotiation",
    "DEFAULT_METADATA_CLASS": "config.api.PlainMetadata",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Lists answer whole unless the client asks ?limit=&offset= (then {"count", "next", "previous", "results"}).
    "DEFAULT_PAGINATION_CLASS": "config.pagination.OptionalLimitOffset",
}
API_MAX_JSON_DEPTH = 64
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(4 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES
SPECTACULAR_SETTINGS = {
    "TITLE": "Truco Club API",
    "DESCRIPTION": "Tournaments, refereeing and súmulas for Truco club tournaments.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,  # a request body says what it needs: no read-only fields, no blank text
    "ENUM_NAME_OVERRIDES": {"RefereeCallKindEnum": "referee.models.RefereeCall.Kind",
                            "BestOfEnum": "events.models.Tournament.BestOf",
                            "TiebreakEnum": "draw.pairing.standings.TIEBREAK_CHOICES",
                            "TeamTiebreakEnum": "draw.pairing.teams.TEAM_TIEBREAK_CHOICES",
                            "StatusEnum": "draw.models.Match.Status",
                            "TournamentWriteStatusEnum": "tournaments.serializers.WRITABLE_STATUSES"},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.add_shared_components"],
}

# Cache: built public pages by their ETag (public.conditional), an optimisation only. Redis
# shared by the web processes with DJANGO_CACHE_URL (e.g. redis://127.0.0.1:6379/2), else
# each process's memory.
_cache_url = os.environ.get("DJANGO_CACHE_URL", "")
CACHES = {
    # a Redis that does not answer (a host gone) fails a cache call within a second: the page is then built
    # without it (public.conditional), instead of a web thread waiting for the system's TCP timeout
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
    if _cache_url.startswith(("redis://", "rediss://"))
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "truco", "OPTIONS": {"MAX_ENTRIES": 2000}}
}
# Which error mails went out lately (config.logs.MailThrottleFilter): shared by every process, never in
# one process's memory nor in the database (down when it matters): Redis with DJANGO_CACHE_URL, else files
# in var/ (every process of this machine).
CACHES["errors"] = (
    {**CACHES["default"], "KEY_PREFIX": "errors"} if _cache_url.startswith(("redis://", "rediss://"))
    else {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(VAR_DIR / "cache" / "errors"),
          "OPTIONS": {"MAX_ENTRIES": 1000}}
)

# The task queue (Celery, its broker, the beat's schedule, the print jobs' timings): config/task_queue.py.
from config.task_queue import task_queue_settings  # noqa: E402

globals().update(task_queue_settings(VAR_DIR))

# The server's seal on súmula versions (scoring/integrity.py): an Ed25519 key that is not in the
# database. SUMULA_SIGNING_KEY is the private key (32 bytes, base64); without it a key file is made.
SUMULA_SIGNING_KEY = os.environ.get("SUMULA_SIGNING_KEY", "")
SUMULA_SIGNING_KEY_FILE = os.environ.get("SUMULA_SIGNING_KEY_FILE", str(VAR_DIR / "sumula-signing.key"))
#: the key file was named by the operator (a secret or a shared volume), not made on first use
SUMULA_SIGNING_KEY_FILE_CHOSEN = bool(os.environ.get("SUMULA_SIGNING_KEY_FILE"))
#: public keys of earlier seal keys (base64, comma-separated): their seals still hold after a rotation
SUMULA_SIGNING_OLD_KEYS = [k.strip() for k in os.environ.get("SUMULA_SIGNING_OLD_KEYS", "").split(",") if k.strip()]
#: only for an install upgraded from before seals: the highest id of each kind of row stored unsealed
#: ("version:120,signature:300,result:40"); by default none, so a blank seal is never accepted
SUMULA_UNSEALED_UNTIL = {kind.strip(): value.strip() for kind, _, value in
                         (item.partition(":") for item in os.environ.get("SUMULA_UNSEALED_UNTIL", "").split(","))
                         if kind.strip() and value.strip()}

# Organizers and referees sign in on the site's own page (the admin's accepts staff only).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

# Absolute address of the site, printed on súmulas and table cards (their QR codes) and shown in links.
# Set: always this address. Not set: the address of the request (the one the organizer is using),
# this default only without a request (scoring/site.py).
SITE_URL_SET = bool(os.environ.get("SITE_URL", "").strip())
SITE_URL = (os.environ.get("SITE_URL", "").strip() or "http://127.0.0.1:8000").rstrip("/")
# a referee's invitation link works once, for this many days
REFEREE_INVITATION_DAYS = float(os.environ.get("REFEREE_INVITATION_DAYS", "7"))

# -- errors and logs --------------------------------------------------------------------------
# Pages for 400, 403, 404 and 500 in the site's layout (templates/errors/).
CSRF_FAILURE_VIEW = "config.error_views.csrf_failure"
ADMINS = [(name or address, address) for name, address in getaddresses(env_list("DJANGO_ADMINS")) if address]
MANAGERS = ADMINS
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "truco@localhost")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", SERVER_EMAIL)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
#: one error mail per distinct error per this many minutes, counted across processes
ERROR_MAIL_EVERY_MINUTES = float(os.environ.get("DJANGO_ERROR_MAIL_MINUTES", "10"))
#: what a 503 (the database or the broker unreachable) tells clients to wait before trying again
RETRY_AFTER_SECONDS = int(os.environ.get("DJANGO_RETRY_AFTER_SECONDS", "10"))
# Mail to people (the organizer told of a PIN lockout: scoring/pin_notices.py) only when a mail server is
# named or a backend chosen; otherwise the pages alone tell.
EMAIL_CONFIGURED = bool(os.environ.get("EMAIL_HOST") or os.environ.get("EMAIL_BACKEND"))

# Web Push to the phones that allowed it on a pair's page (its match called to a table): off unless both VAPID keys are
# set (the private key as base64url, as py-vapid's `vapid --gen` and `--applicationServerKey` print them).
# The server posts only to these push services' hosts (over HTTPS; WEBPUSH_HTTP_HOSTS: hosts allowed over
# plain HTTP, the tests' loopback), so a subscription cannot make it post anywhere else.
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "").strip()
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "").strip()
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "").strip() or f"mailto:{DEFAULT_FROM_EMAIL}"
WEBPUSH_HOSTS = [h.lower() for h in env_list(
    "WEBPUSH_HOSTS", "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,*.notify.windows.com")]
WEBPUSH_HTTP_HOSTS = [h.lower() for h in env_list("WEBPUSH_HTTP_HOSTS")]

# Everything to standard output, one line per event in one format for web, worker and beat (time with
# its UTC offset, process, request id; DJANGO_LOG_FORMAT=json for JSON lines), tracebacks folded into
# the line; errors also by mail to ADMINS, one per distinct error per DJANGO_ERROR_MAIL_MINUTES.
from config.logs import logging_config  # noqa: E402

LOGGING = logging_config()
# the error mail's report without secrets (config.log_mail): form fields of PINs and passwords, keys in paths
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.log_mail.ReporterFilter"
