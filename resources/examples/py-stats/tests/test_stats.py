import pytest

from stats import mean, median


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_empty():
    with pytest.raises(ValueError):
        mean([])


def test_median_is_the_middle_value():
    assert median([7, 1, 3]) == 3
    assert median([10, 1, 4, 2]) == 3
