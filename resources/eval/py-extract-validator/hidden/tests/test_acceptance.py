import pytest

import users
import validators
from validators import validate_email


def test_validate_email_normalises():
    assert validate_email("  Pat@Mail.Example.org ") == "pat@mail.example.org"


def test_validate_email_refuses_bad_addresses():
    for bad in ["", "@example.com", "pat@", "pat@example", "pat@@example.com", "a@b@c.com"]:
        with pytest.raises(ValueError):
            validate_email(bad)


def test_users_module_uses_the_shared_validator(monkeypatch):
    calls = []

    def spy(address):
        calls.append(address)
        return "spied@example.com"

    # Either import style (`from validators import …` or `import validators`) must reach the spy.
    monkeypatch.setattr(validators, "validate_email", spy)
    monkeypatch.setattr(users, "validate_email", spy, raising=False)
    assert users.create_user("Kim", "anything")["email"] == "spied@example.com"
    assert users.update_email({"name": "Kim"}, "other")["email"] == "spied@example.com"
    assert calls == ["anything", "other"]
