-- The controller lease (docs/ARCHITECTURE.md, "Standby controller"): one row, the active controller's. Whoever takes
-- it raises the fencing number; every write of the group-commit writer checks, in its own transaction, that the number
-- is still its own, so a deposed controller can change nothing. expires_at is the database's clock, never a host's.
CREATE TABLE controller_lease (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    holder     TEXT NOT NULL,
    address    TEXT NOT NULL,
    fencing    BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
INSERT INTO controller_lease (id, holder, address, fencing, expires_at) VALUES (1, '', '', 0, 'epoch');
