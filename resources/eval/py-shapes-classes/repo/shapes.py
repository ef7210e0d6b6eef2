"""Geometry for the floor-plan tool."""

import math


def area(shape):
    """Area of a shape dict."""
    kind = shape["kind"]
    if kind == "circle":
        return math.pi * shape["radius"] ** 2
    elif kind == "rectangle":
        return shape["width"] * shape["height"]
    elif kind == "triangle":
        a, b, c = shape["a"], shape["b"], shape["c"]
        s = (a + b + c) / 2
        return math.sqrt(s * (s - a) * (s - b) * (s - c))
    else:
        raise ValueError(f"unknown shape kind: {kind}")


def perimeter(shape):
    """Perimeter of a shape dict."""
    kind = shape["kind"]
    if kind == "circle":
        return 2 * math.pi * shape["radius"]
    elif kind == "rectangle":
        return 2 * (shape["width"] + shape["height"])
    elif kind == "triangle":
        return shape["a"] + shape["b"] + shape["c"]
    else:
        raise ValueError(f"unknown shape kind: {kind}")
