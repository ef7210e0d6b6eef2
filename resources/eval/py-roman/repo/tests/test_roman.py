import pytest

from roman import to_roman


def test_additive_numbers():
    assert to_roman(3) == "III"
    assert to_roman(2023) == "MMXXIII"


def test_four_and_nine_are_subtractive():
    assert to_roman(4) == "IV"
    assert to_roman(9) == "IX"


def test_zero_is_refused():
    with pytest.raises(ValueError):
        to_roman(0)
