"""Temperature conversions for the weather station."""


def c_to_f(value):
    return value * 9 / 5 + 32


def f_to_c(value):
    return (value - 32) * 5 / 9


def c_to_k(value):
    return value + 273.15


def k_to_c(value):
    return value - 273.15


def f_to_k(value):
    return (value - 32) * 5 / 9 + 273.15


def k_to_f(value):
    return (value - 273.15) * 9 / 5 + 32
