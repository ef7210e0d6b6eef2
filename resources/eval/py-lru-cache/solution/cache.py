"""An in-memory cache for rendered pages."""

from collections import OrderedDict


class Cache:
    def __init__(self, capacity=128):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.entries = OrderedDict()

    def get(self, key):
        """The cached value, or None."""
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return self.entries[key]

    def put(self, key, value):
        if key in self.entries:
            self.entries.move_to_end(key)
        elif len(self.entries) >= self.capacity:
            self.entries.popitem(last=False)
        self.entries[key] = value

    def __len__(self):
        return len(self.entries)
