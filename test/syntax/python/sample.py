import os
from .models import User


class Account:
    rate = 3

    def __init__(self, owner):
        self.owner = owner

    @property
    def name(self):
        return self.owner.name


def open_account(user):
    if user:
        return Account(user)
    return None
