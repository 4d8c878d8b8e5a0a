"""Content negotiation: DRF's, except that an Accept header no renderer of the view serves
(``text/html`` from a browser, ``application/xml``) gets the view's first renderer (JSON for
the API) rather than a 406: a client reading the answer as JSON can always do so."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class JSONWhateverAccept(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        try:
            selected: Any = super().select_renderer(request, renderers, format_suffix)
        except exceptions.NotAcceptable:
            return renderers[0], renderers[0].media_type
        return selected  # type: ignore[no-any-return]
