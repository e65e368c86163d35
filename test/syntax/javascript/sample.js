import { readFile } from "fs";
const path = require("path");

const LIMIT = 10;

class Account {
  constructor(owner) {
    this.owner = owner;
  }

  name() {
    return this.owner.name;
  }
}

function openAccount(user) {
  return user ? new Account(user) : null;
}

const close = (account) => {
  account.closed = true;
};
