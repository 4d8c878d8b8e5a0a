"""uvicorn's options, one place for every ASGI process the project starts.

``manage.py serve`` (the embedded service) and the live process of a deployment both run
config.asgi under uvicorn with these options. The live process can be started as::

    python -m config.asgi_server --host 0.0.0.0 --port 8001

or with uvicorn's own command line and the same options (docs/deploy.md, "HTTPS behind a proxy").

Two things differ from uvicorn's defaults, both from issue 36:

- **Bounded headers.** uvicorn's httptools parser takes a request line and headers of any size
  (one 64 MB header was accepted; eight at once held 1 GB). h11 buffers at most
  ``h11_max_incomplete_event_size`` bytes before the request's headers are complete and answers
  400 beyond it. h11 costs more CPU per request than httptools, which matters little here: the
  live process holds long streams, and the embedded service is the one-machine setup.
- **Proxy headers only from the configured proxies, only when there are proxies.** uvicorn trusts
  X-Forwarded-For from 127.0.0.1 by default, so any local client (or a proxy on the same host that
  does not overwrite the header) could make up its address. ``NUM_PROXIES`` (the API's throttles'
  count of proxies in front) 0 switches proxy headers off; otherwise uvicorn takes the client from
  X-Forwarded-For only when the peer is in ``FORWARDED_ALLOW_IPS``, and then the right-most address
  that is not one of those proxies (the hop the nearest proxy appended, as DRF's NUM_PROXIES does).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

# Request line plus every header: nginx's own default buffers take 4 lines of 8 KiB; anything
# bigger is not a browser or an app of ours.
MAX_HEADER_BYTES = 32 * 1024


def uvicorn_options() -> dict[str, Any]:
    """The keyword arguments for ``uvicorn.run`` / ``uvicorn.Config`` from the settings."""
    from django.conf import settings

    return {
        "http": "h11",
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "proxy_headers": settings.REST_FRAMEWORK["NUM_PROXIES"] > 0,
        "forwarded_allow_ips": settings.FORWARDED_ALLOW_IPS,
        # Django does not implement the ASGI lifespan protocol; "off" avoids a warning.
        "lifespan": "off",
    }


def main(argv: list[str] | None = None) -> None:
    """Serve config.asgi (the live routes, or the whole service) with uvicorn_options()."""
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m config.asgi_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--access-log", action="store_true", help="Log every request.")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    uvicorn.run(
        "config.asgi:application",
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=args.access_log,
        **uvicorn_options(),
    )


if __name__ == "__main__":
    main()
