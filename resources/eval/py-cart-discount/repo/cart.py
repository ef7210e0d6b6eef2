"""A shopping cart."""


class Cart:
    def __init__(self):
        self.lines = []

    def add(self, name, price, quantity=1):
        """Adds a line; price is per item."""
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        self.lines.append((name, price, quantity))

    def subtotal(self):
        return sum(price * quantity for _, price, quantity in self.lines)

    def total(self, discount_percent=0):
        """Subtotal with a percentage discount, rounded to cents."""
        return round(self.subtotal() - discount_percent, 2)
