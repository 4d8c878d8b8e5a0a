"""The accounts HTTP API: routes, thin views and serializers."""
