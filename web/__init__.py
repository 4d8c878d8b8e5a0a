"""The mobile web client: an installable single-page app that plays through /api/v1/ only."""
