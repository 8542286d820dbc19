"""Exports and imports: round histories and standings as CSV and XLSX, and a whole
league as JSON (issue 5). The URLs live here beside the views; games/urls.py
includes them."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
