import pytest

from cache import Cache


def test_get_counts_as_a_use():
    cache = Cache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert cache.get("b") is None
    assert cache.get("a") == 1


def test_updating_a_key_evicts_nothing():
    cache = Cache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    assert len(cache) == 2
    assert cache.get("a") == 10
    assert cache.get("b") == 2
    cache.put("c", 3)
    assert cache.get("a") is None


def test_capacity_must_be_positive():
    with pytest.raises(ValueError):
        Cache(0)
