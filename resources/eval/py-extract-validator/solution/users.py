"""User records for the mailing list."""

from validators import validate_email


def create_user(name, email):
    email = validate_email(email)
    if not name.strip():
        raise ValueError("name must not be empty")
    return {"name": name.strip(), "email": email}


def update_email(user, email):
    return {**user, "email": validate_email(email)}
