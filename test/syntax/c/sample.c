#include <stdio.h>
#include "account.h"

static int count = 0;

struct account {
    int id;
};

/* Open one. */
int open_account(int id, char *name) {
    if (id < 0 || !name)
        return -1;
    count++;
    return id;
}

char *account_name(struct account *a) {
    return NULL;
}
