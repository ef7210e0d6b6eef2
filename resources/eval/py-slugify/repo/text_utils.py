"""Text helpers for building URLs."""


def slugify(title):
    """Lower-case URL slug of a title: runs of other characters become one hyphen, none at the ends."""
    out = []
    for char in title.lower():
        if char.isascii() and char.isalnum():
            out.append(char)
        else:
            out.append("-")
    return "".join(out)
