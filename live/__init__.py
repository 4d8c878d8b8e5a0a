"""Live updates: announcements after commit (``announce.publish``, the one entry point of the
services), the stream driver of every live stream (``driver``), the keep-alives (``keepalive``),
who watches which game (``presence``), and the request threads given back while waiting
(``threads``). Infrastructure under games and notifications, which feed it; it imports no app's
models or services (docs/architecture.md)."""
