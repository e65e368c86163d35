#include <string>

class Account {
public:
    Account(int id) : id_(id) {}
    int id() const { return id_; }
private:
    int id_;
};

int open_account(int id) {
    return id > 0 ? id : 0;
}
