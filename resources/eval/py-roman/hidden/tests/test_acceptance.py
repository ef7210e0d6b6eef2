import pytest

from roman import to_roman


def test_every_subtractive_pair():
    assert to_roman(1994) == "MCMXCIV"
    assert to_roman(444) == "CDXLIV"


def test_largest_number():
    assert to_roman(3999) == "MMMCMXCIX"


def test_out_of_range_is_refused():
    with pytest.raises(ValueError):
        to_roman(4000)
    with pytest.raises(ValueError):
        to_roman(-5)
