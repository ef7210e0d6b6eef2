import math

import pytest

from shapes import Circle, Rectangle, Triangle, area, from_dict


def test_classes_compute_area_and_perimeter():
    assert Circle(1).area() == pytest.approx(math.pi)
    assert Rectangle(2, 5).perimeter() == 14
    assert Triangle(3, 4, 5).area() == pytest.approx(6)


def test_from_dict_builds_the_right_class():
    assert isinstance(from_dict({"kind": "circle", "radius": 1}), Circle)
    assert isinstance(from_dict({"kind": "rectangle", "width": 1, "height": 2}), Rectangle)
    assert isinstance(from_dict({"kind": "triangle", "a": 3, "b": 4, "c": 5}), Triangle)
    with pytest.raises(ValueError):
        from_dict({"kind": "hexagon"})


def test_old_function_still_works():
    assert area({"kind": "rectangle", "width": 6, "height": 7}) == 42
