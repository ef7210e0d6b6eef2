import math

import pytest

from shapes import area, perimeter


def test_circle():
    assert area({"kind": "circle", "radius": 2}) == pytest.approx(4 * math.pi)
    assert perimeter({"kind": "circle", "radius": 2}) == pytest.approx(4 * math.pi)


def test_rectangle():
    assert area({"kind": "rectangle", "width": 3, "height": 4}) == 12
    assert perimeter({"kind": "rectangle", "width": 3, "height": 4}) == 14


def test_triangle():
    assert area({"kind": "triangle", "a": 3, "b": 4, "c": 5}) == pytest.approx(6)
    assert perimeter({"kind": "triangle", "a": 3, "b": 4, "c": 5}) == 12


def test_unknown_kind():
    with pytest.raises(ValueError):
        area({"kind": "hexagon"})
