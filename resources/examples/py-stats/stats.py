"""Small statistics helpers."""


def mean(values):
    """Arithmetic mean of a non-empty list of numbers."""
    if not values:
        raise ValueError("mean() of an empty list")
    return sum(values) / len(values)


def median(values):
    """Middle value of a non-empty list (mean of the two middle values for an even count)."""
    if not values:
        raise ValueError("median() of an empty list")
    return mean(values)
