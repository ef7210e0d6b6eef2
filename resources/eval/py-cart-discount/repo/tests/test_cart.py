from cart import Cart


def make_cart():
    cart = Cart()
    cart.add("pen", 2.50, 4)
    cart.add("book", 40.00)
    return cart


def test_subtotal():
    assert make_cart().subtotal() == 50.00


def test_total_without_discount():
    assert make_cart().total() == 50.00


def test_ten_percent_off():
    assert make_cart().total(10) == 45.00
