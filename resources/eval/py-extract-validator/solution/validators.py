"""Validation shared by the user functions."""


def validate_email(address):
    """The address stripped and in lower case; ValueError when it is not an e-mail address."""
    email = address.strip().lower()
    local, at, domain = email.partition("@")
    if not at or not local or "@" in domain or "." not in domain:
        raise ValueError(f"not an e-mail address: {email!r}")
    return email
