"""Routes mounted under /api/v1/ by config/urls.py. Empty until the API lands."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
