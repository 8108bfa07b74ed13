package dev.gantry.scheduler.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link StateStore} on PostgreSQL: the controller_state table (migration V3), which keeps the QOS table and the fair-share
 * usage ledger. Once {@link #fence fenced}, as the job store is, each write checks in its own transaction that the
 * controller lease still has this controller's fencing number: a deposed controller can no longer overwrite the usage its
 * successor charges.
 */
public final class JdbcStateStore implements StateStore {

    private final DataSource dataSource;
    /** This controller's fencing number, 0 while it writes unfenced (tests, tools). */
    private volatile long fencing;

    public JdbcStateStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** From now on every write checks the lease for {@code fencing}; one that finds another throws {@link FencedException}. */
    public JdbcStateStore fence(long fencing) {
        this.fencing = fencing;
        return this;
    }

    @Override
    public void put(String name, byte[] value) throws StoreException {
        long f = fencing;
        try (Connection c = dataSource.getConnection()) {
            // FOR SHARE: a takeover waits for this transaction, or this one sees it
            LeaseTable.fencedTransaction(c, f, tx -> {
                try (PreparedStatement ps = tx.prepareStatement("""
                        INSERT INTO controller_state (name, value, updated_at) VALUES (?, ?, now())
                        ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
                        """)) {
                    ps.setString(1, name);
                    ps.setBytes(2, value);
                    ps.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new StoreException("could not store " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<byte[]> get(String name) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT value FROM controller_state WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("could not read " + name + ": " + e.getMessage(), e);
        }
    }
}
