"""A resolver the tests control: names under ``.test`` answer what the test says, in turn
(``answers[name]``: one list of addresses per lookup, the last one repeated), and every lookup is
counted. Other names go to the real resolver."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

_real_getaddrinfo = socket.getaddrinfo


@dataclass
class FakeDNS:
    answers: dict[str, list[list[str]]] = field(default_factory=dict)
    lookups: list[str] = field(default_factory=list)

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in self.answers:
            return _real_getaddrinfo(host, port, *args, **kwargs)
        self.lookups.append(name)
        turns = self.answers[name]
        addresses = turns.pop(0) if len(turns) > 1 else turns[0]
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDNS]:
    fake = FakeDNS()
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    yield fake
