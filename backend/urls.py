"""Root URL map: the admin, the OpenAPI schema and docs, and each app's API under /api/v1/."""
from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from backend.api.converters import ObjectIdConverter

# Before the apps' URL modules are imported: their routes name objects with <id:...>.
register_converter(ObjectIdConverter, "id")

api_v1 = [
    path("", include("players.urls")),
    path("", include("guilds.urls")),
    path("", include("dungeons.urls")),
    path("", include("npcs.urls")),
    path("", include("matches.urls")),
    path("", include("darkness.urls")),
    path("", include("backend.live.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/v1/", include(api_v1)),
    path("play/", include("play.urls")),
]

handler400 = "backend.api.errors.bad_request_view"
handler403 = "backend.api.errors.permission_denied_view"
handler404 = "backend.api.errors.not_found_view"
handler500 = "backend.api.errors.server_error_view"
