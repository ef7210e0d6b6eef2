"""Geometry for the floor-plan tool."""

import math


class Circle:
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return math.pi * self.radius ** 2

    def perimeter(self):
        return 2 * math.pi * self.radius


class Rectangle:
    def __init__(self, width, height):
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height

    def perimeter(self):
        return 2 * (self.width + self.height)


class Triangle:
    def __init__(self, a, b, c):
        self.a, self.b, self.c = a, b, c

    def area(self):
        s = (self.a + self.b + self.c) / 2
        return math.sqrt(s * (s - self.a) * (s - self.b) * (s - self.c))

    def perimeter(self):
        return self.a + self.b + self.c


def from_dict(shape):
    """The shape object a shape dict describes."""
    kind = shape["kind"]
    if kind == "circle":
        return Circle(shape["radius"])
    if kind == "rectangle":
        return Rectangle(shape["width"], shape["height"])
    if kind == "triangle":
        return Triangle(shape["a"], shape["b"], shape["c"])
    raise ValueError(f"unknown shape kind: {kind}")


def area(shape):
    """Area of a shape dict."""
    return from_dict(shape).area()


def perimeter(shape):
    """Perimeter of a shape dict."""
    return from_dict(shape).perimeter()
