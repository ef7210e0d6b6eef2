import pytest

from cart import Cart


def test_discount_is_rounded_to_cents():
    cart = Cart()
    cart.add("tea", 3.33, 3)
    assert cart.total(15) == 8.49


def test_full_discount_is_free():
    cart = Cart()
    cart.add("sample", 12.00, 2)
    assert cart.total(100) == 0


def test_discount_out_of_range_is_refused():
    cart = Cart()
    cart.add("pen", 1.00)
    with pytest.raises(ValueError):
        cart.total(-5)
    with pytest.raises(ValueError):
        cart.total(120)
