"""An in-memory cache for rendered pages."""


class Cache:
    def __init__(self, capacity=128):
        self.capacity = capacity
        self.entries = {}

    def get(self, key):
        """The cached value, or None."""
        return self.entries.get(key)

    def put(self, key, value):
        self.entries[key] = value

    def __len__(self):
        return len(self.entries)
