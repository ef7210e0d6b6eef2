import pytest

from settings import load_config


def test_bool_words_in_any_case():
    assert load_config({"debug": False}, {"APP_DEBUG": "Yes"}) == {"debug": True}
    assert load_config({"debug": True}, {"APP_DEBUG": "OFF"}) == {"debug": False}


def test_bad_value_names_the_variable():
    with pytest.raises(ValueError, match="APP_PORT"):
        load_config({"port": 8080}, {"APP_PORT": "eighty"})
    with pytest.raises(ValueError, match="APP_DEBUG"):
        load_config({"debug": False}, {"APP_DEBUG": "maybe"})


def test_unknown_keys_ignored_and_defaults_untouched():
    defaults = {"port": 8080, "host": "localhost"}
    result = load_config(defaults, {"APP_PORT": "81", "APP_OTHER": "x", "PORT": "1"})
    assert result == {"port": 81, "host": "localhost"}
    assert defaults == {"port": 8080, "host": "localhost"}
