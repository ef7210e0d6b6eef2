"""User records for the mailing list."""


def create_user(name, email):
    email = email.strip().lower()
    local, at, domain = email.partition("@")
    if not at or not local or "@" in domain or "." not in domain:
        raise ValueError(f"not an e-mail address: {email!r}")
    if not name.strip():
        raise ValueError("name must not be empty")
    return {"name": name.strip(), "email": email}


def update_email(user, email):
    email = email.strip().lower()
    local, at, domain = email.partition("@")
    if not at or not local or "@" in domain or "." not in domain:
        raise ValueError(f"not an e-mail address: {email!r}")
    return {**user, "email": email}
