from cache import Cache


def test_get_after_put():
    cache = Cache(2)
    cache.put("a", 1)
    assert cache.get("a") == 1
    assert cache.get("missing") is None


def test_holds_at_most_capacity():
    cache = Cache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("c", 3)
    assert len(cache) == 2
    assert cache.get("a") is None
    assert cache.get("c") == 3
