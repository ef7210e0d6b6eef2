import pytest

from textstats import top_words


def test_ties_are_alphabetical():
    assert top_words("pear apple fig apple pear fig kiwi", 3) == [("apple", 2), ("fig", 2), ("pear", 2)]


def test_fewer_words_than_asked_and_zero():
    assert top_words("one two", 5) == [("one", 1), ("two", 1)]
    assert top_words("one two", 0) == []
    assert top_words("", 3) == []


def test_negative_n_is_refused():
    with pytest.raises(ValueError):
        top_words("a b", -1)
