use std::collections::HashMap;

const LIMIT: usize = 10;

#[derive(Debug)]
struct Account {
    id: u32,
}

impl Account {
    fn new(id: u32) -> Self {
        Account { id }
    }

    fn id(&self) -> u32 {
        self.id
    }
}

fn open_account(id: u32) -> Option<Account> {
    if id > 0 { Some(Account::new(id)) } else { None }
}
