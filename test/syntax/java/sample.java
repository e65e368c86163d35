import java.util.List;

public class Account {
    private int id;

    public Account(int id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return "Account " + id;
    }
}

interface Named {
    String name();
}
