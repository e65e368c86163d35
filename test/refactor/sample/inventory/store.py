from . import items as catalogue
from .items import Item, cheapest


class Store:
    def __init__(self, owner):
        self.owner = owner
        self.stock = []

    def add(self, item: Item):
        self.stock.append(item)
        return item

    def value(self):
        total = 0
        for entry in self.stock:
            total += entry.total()
        return total

    def bargain(self):
        return cheapest(self.stock) if self.stock else None


def open_store(owner, names=()):
    store = Store(owner=owner)
    for name in names:
        store.add(catalogue.Item(name, price=1))
    return store
