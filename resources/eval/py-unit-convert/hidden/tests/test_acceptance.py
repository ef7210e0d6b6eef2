import pytest

import temperature
from temperature import convert


def test_convert_every_pair():
    assert convert(100, "C", "F") == pytest.approx(212)
    assert convert(-40, "F", "C") == pytest.approx(-40)
    assert convert(300, "K", "F") == pytest.approx(80.33)
    assert convert(0, "c", "k") == pytest.approx(273.15)


def test_same_unit_and_unknown_unit():
    assert convert(21.5, "K", "k") == 21.5
    with pytest.raises(ValueError):
        convert(1, "C", "R")
    with pytest.raises(ValueError):
        convert(1, "X", "C")


def test_wrappers_delegate_to_convert(monkeypatch):
    seen = []
    monkeypatch.setattr(temperature, "convert", lambda value, a, b: seen.append((a.upper(), b.upper())) or 0)
    temperature.c_to_f(1)
    temperature.k_to_f(1)
    assert seen == [("C", "F"), ("K", "F")]
