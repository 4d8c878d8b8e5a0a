"""An API view served through a wrapper of its Django view: the long-polls and event streams,
whose async wrapper does the waiting while holding no thread busy and no database connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rest_framework.views import APIView


class WrappedAPIView(APIView):
    """``as_view`` hands the view DRF builds to ``wrapper`` (a plain function: looked up on the
    class, it is not bound), and Django routes to what the wrapper returns."""

    wrapper: ClassVar[Callable[[Callable[..., Any]], Callable[..., Any]]]

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return cls.wrapper(super().as_view(**initkwargs))
