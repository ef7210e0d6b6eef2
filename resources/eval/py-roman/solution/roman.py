"""Roman numerals."""

NUMERALS = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]


def to_roman(n):
    """Standard Roman numeral for a whole number from 1 to 3999."""
    if n < 1 or n > 3999:
        raise ValueError("to_roman() needs a number from 1 to 3999")
    out = []
    for value, letters in NUMERALS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)
