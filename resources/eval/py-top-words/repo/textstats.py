"""Word statistics for the editor's status bar."""

import re

WORD = re.compile(r"[a-z0-9']+")


def words(text):
    """The words of a text, lower case, in order."""
    return WORD.findall(text.lower())


def word_count(text):
    return len(words(text))
