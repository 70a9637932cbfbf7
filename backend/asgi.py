"""The ASGI entry point (``uvicorn backend.asgi:application``): Django's application, which serves the API
and its streams (async views, SPEC 13); with ``DEBUG`` on it also serves the static files, as ``runserver``
does."""
import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

application = get_asgi_application()

if settings.DEBUG:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)
