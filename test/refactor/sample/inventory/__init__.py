"""A small package for the systematic rename test: every definition is
renamed once and the package's own tests must still pass."""
from .items import Item, Perishable
from .store import Store, open_store

__all__ = ["Item", "Perishable", "Store", "open_store"]
