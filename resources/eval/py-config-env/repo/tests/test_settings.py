from settings import load_config


def test_defaults_without_env():
    assert load_config({"port": 8080}, {}) == {"port": 8080}


def test_int_override():
    assert load_config({"port": 8080}, {"APP_PORT": "9000"}) == {"port": 9000}


def test_str_override():
    assert load_config({"host": "127.0.0.1"}, {"APP_HOST": "0.0.0.0"}) == {"host": "0.0.0.0"}
