"""Roman numerals."""

NUMERALS = [
    (1000, "M"),
    (500, "D"),
    (100, "C"),
    (50, "L"),
    (10, "X"),
    (5, "V"),
    (1, "I"),
]


def to_roman(n):
    """Standard Roman numeral for a whole number from 1 to 3999."""
    if n < 1:
        raise ValueError("to_roman() needs a number from 1 to 3999")
    out = []
    for value, letters in NUMERALS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)
