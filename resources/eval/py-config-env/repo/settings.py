"""Configuration for the web service."""

DEFAULTS = {"host": "127.0.0.1", "port": 8080, "debug": False}


def load_config(defaults=None, env=None):
    """The configuration: defaults, overridden by APP_* environment variables."""
    defaults = DEFAULTS if defaults is None else defaults
    return dict(defaults)
