package bank

import "fmt"

const Limit = 10

type Account struct {
	ID int
}

func (a *Account) Name() string {
	return fmt.Sprint(a.ID)
}

func OpenAccount(id int) *Account {
	if id > 0 {
		return &Account{ID: id}
	}
	return nil
}
