"""Word statistics for the editor's status bar."""

import re
from collections import Counter

WORD = re.compile(r"[a-z0-9']+")


def words(text):
    """The words of a text, lower case, in order."""
    return WORD.findall(text.lower())


def word_count(text):
    return len(words(text))


def top_words(text, n):
    """The n most frequent words as (word, count), highest count first, ties alphabetical."""
    if n < 0:
        raise ValueError("n must not be negative")
    counts = Counter(words(text))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]
