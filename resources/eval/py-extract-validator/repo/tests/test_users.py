import pytest

from users import create_user, update_email


def test_create_normalises_the_address():
    assert create_user(" Ann ", " Ann@Example.COM ") == {"name": "Ann", "email": "ann@example.com"}


def test_create_refuses_a_bad_address():
    with pytest.raises(ValueError):
        create_user("Ann", "ann.example.com")


def test_update_email():
    user = create_user("Bo", "bo@example.com")
    assert update_email(user, "BO@work.org")["email"] == "bo@work.org"
    with pytest.raises(ValueError):
        update_email(user, "bo@work")
