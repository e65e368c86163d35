class Item:
    def __init__(self, name, price, count=1):
        self.name = name
        self.price = price
        self.count = count

    def total(self):
        return self.price * self.count

    def describe(self):
        return "%s x%d" % (self.name, self.count)


class Perishable(Item):
    def __init__(self, name, price, days, count=1):
        super().__init__(name, price, count=count)
        self.days = days

    def total(self):
        return super().total() if self.days > 0 else 0

    def spoiled(self):
        return self.days <= 0


def cheapest(items):
    return min(items, key=lambda item: item.price)
