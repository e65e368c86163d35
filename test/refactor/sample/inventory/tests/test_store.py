import unittest

from inventory import Item, Perishable, open_store
from inventory.items import cheapest


class StoreTest(unittest.TestCase):
    def test_value(self):
        store = open_store("ann", ["pen", "cup"])
        store.add(Item("lamp", price=10, count=2))
        self.assertEqual(store.value(), 22)

    def test_perishable(self):
        milk = Perishable("milk", 2, days=0)
        self.assertTrue(milk.spoiled())
        self.assertEqual(milk.total(), 0)
        self.assertEqual(Perishable("egg", 1, days=3, count=4).total(), 4)

    def test_bargain(self):
        store = open_store("bob")
        self.assertIsNone(store.bargain())
        store.add(Item("a", 5))
        store.add(Item("b", 3))
        self.assertEqual(store.bargain().describe(), "b x1")
        self.assertEqual(cheapest([Item("c", 9), Item("d", 8)]).name, "d")


if __name__ == "__main__":
    unittest.main()
