package dev.gantry.scheduler.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/** {@link StateStore} on PostgreSQL: the controller_state table (migration V3). */
public final class JdbcStateStore implements StateStore {

    private final DataSource dataSource;

    public JdbcStateStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void put(String name, byte[] value) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO controller_state (name, value, updated_at) VALUES (?, ?, now())
                        ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
                        """)) {
            ps.setString(1, name);
            ps.setBytes(2, value);
            ps.executeUpdate();
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
