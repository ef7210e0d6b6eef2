import pytest

from temperature import c_to_f, c_to_k, f_to_c, f_to_k, k_to_c, k_to_f


def test_celsius_and_fahrenheit():
    assert c_to_f(100) == pytest.approx(212)
    assert f_to_c(32) == pytest.approx(0)


def test_kelvin():
    assert c_to_k(0) == pytest.approx(273.15)
    assert k_to_c(0) == pytest.approx(-273.15)


def test_fahrenheit_and_kelvin():
    assert f_to_k(212) == pytest.approx(373.15)
    assert k_to_f(273.15) == pytest.approx(32)
