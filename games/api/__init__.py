"""HTTP API of the games app (DRF views and serializers, kept thin)."""
