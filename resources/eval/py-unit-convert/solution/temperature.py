"""Temperature conversions for the weather station."""

TO_CELSIUS = {
    "C": lambda value: value,
    "F": lambda value: (value - 32) * 5 / 9,
    "K": lambda value: value - 273.15,
}
FROM_CELSIUS = {
    "C": lambda value: value,
    "F": lambda value: value * 9 / 5 + 32,
    "K": lambda value: value + 273.15,
}


def convert(value, from_unit, to_unit):
    """A temperature in another unit ("C", "F" or "K", any case), converted through Celsius."""
    source, target = from_unit.upper(), to_unit.upper()
    if source not in TO_CELSIUS or target not in FROM_CELSIUS:
        raise ValueError(f"unknown unit: {from_unit if source not in TO_CELSIUS else to_unit}")
    if source == target:
        return value
    return FROM_CELSIUS[target](TO_CELSIUS[source](value))


def c_to_f(value):
    return convert(value, "C", "F")


def f_to_c(value):
    return convert(value, "F", "C")


def c_to_k(value):
    return convert(value, "C", "K")


def k_to_c(value):
    return convert(value, "K", "C")


def f_to_k(value):
    return convert(value, "F", "K")


def k_to_f(value):
    return convert(value, "K", "F")
