#!/bin/bash
source ./lib.sh
LIMIT=10

open_account() {
    if [ -n "$1" ]; then
        echo "open $1"
    fi
}

close_account() {
    echo "close"
}
