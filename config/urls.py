from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import api_not_found
from config.health import healthz


class ApiDocsView(SpectacularSwaggerView):
    """The Swagger UI page. It renders only through its HTML template, which DRF's OPTIONS answer has none of (a
    500): OPTIONS here is a 405, as for any method the page does not serve."""

    metadata_class = None


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("accounts/", include("accounts.urls")),
    path("", include("battles.urls")),
    path("", include("campaign.urls")),
    path("", include("strategic_map.urls")),
    # Last: a path under api/ that nothing above matches (/api/battles/abc/) is the API's JSON 404, not a page.
    re_path(r"^api/", api_not_found, name="api_not_found"),
]
