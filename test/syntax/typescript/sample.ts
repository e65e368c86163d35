import { User } from "./user";

interface Named {
  name(): string;
}

export class Account implements Named {
  private owner: User;

  constructor(owner: User) {
    this.owner = owner;
  }

  name(): string {
    return this.owner.name;
  }
}

function openAccount(user: User): Account {
  return new Account(user);
}
