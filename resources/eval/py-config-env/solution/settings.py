"""Configuration for the web service."""

DEFAULTS = {"host": "127.0.0.1", "port": 8080, "debug": False}

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def _convert(name, text, default):
    if isinstance(default, bool):
        word = text.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ValueError(f"{name}: '{text}' is not a yes/no value")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{name}: '{text}' is not a whole number") from None
    return text


def load_config(defaults=None, env=None):
    """The configuration: defaults, overridden by APP_* environment variables."""
    defaults = DEFAULTS if defaults is None else defaults
    env = {} if env is None else env
    config = dict(defaults)
    for key, default in defaults.items():
        name = "APP_" + key.upper()
        if name in env:
            config[key] = _convert(name, env[name], default)
    return config
