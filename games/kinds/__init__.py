"""One adapter per game kind, outside the pure engine: what the API and the service say about a
game beyond its rules (its action requests, table, examples, bots and schema names), declared
once in its own module and listed in ``registry``. See docs/architecture.md, "Adding a new
game"."""
