package dev.gantry.scheduler.store;

import dev.gantry.scheduler.lease.Lease;
import dev.gantry.scheduler.lease.LeaseRules;
import dev.gantry.scheduler.lease.LeaseTerms;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The controller lease on PostgreSQL (table controller_lease, migration V5; rules in {@link LeaseRules}). Each method is
 * one transaction; times are the database's ({@code now()}), so hosts' clocks do not matter. Thread-safe.
 */
public final class LeaseTable {

    /** Locks a write transaction's view of the lease: a takeover (FOR UPDATE) waits for it, and it for a takeover. */
    static final String FENCE_CHECK = "SELECT 1 FROM controller_lease WHERE id = 1 AND fencing = ? FOR SHARE";

    private final DataSource dataSource;

    public LeaseTable(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The lease as stored, and the database's now. */
    public record Seen(Lease lease, Instant now) {}

    /** Reads the lease (no lock). */
    public Seen read() throws StoreException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return select(c, false);
        } catch (SQLException e) {
            throw new StoreException("reading the controller lease failed: " + e.getMessage(), e);
        }
    }

    /**
     * Takes the lease for {@code me} if {@link LeaseRules#claim} says so, in one transaction that locks the row: two
     * standbys cannot both take it, and a takeover waits for a write transaction of the holder that checked its fencing.
     */
    public LeaseRules.Claim claim(String me, String address, LeaseTerms terms) throws StoreException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Seen seen = select(c, true);
                LeaseRules.Claim claim = LeaseRules.claim(seen.lease(), me, address, seen.now(), terms);
                if (claim instanceof LeaseRules.Claim.Take take) {
                    try (PreparedStatement ps = c.prepareStatement("""
                            UPDATE controller_lease SET holder = ?, address = ?, fencing = ?,
                              expires_at = now() + ? * interval '1 millisecond' WHERE id = 1
                            """)) {
                        ps.setString(1, take.lease().holder());
                        ps.setString(2, take.lease().address());
                        ps.setLong(3, take.lease().fencing());
                        ps.setLong(4, terms.ttl().toMillis());
                        ps.executeUpdate();
                    }
                }
                c.commit();
                return claim;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("claiming the controller lease failed: " + e.getMessage(), e);
        }
    }

    /**
     * Extends the lease held with {@code fencing} to the database's now + ttl.
     *
     * @return false when the lease has another fencing number: another controller took it
     */
    public boolean renew(long fencing, LeaseTerms terms) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE controller_lease SET expires_at = now() + ? * interval '1 millisecond' WHERE id = 1 AND fencing = ?")) {
            c.setAutoCommit(true);
            ps.setLong(1, terms.ttl().toMillis());
            ps.setLong(2, fencing);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("renewing the controller lease failed: " + e.getMessage(), e);
        }
    }

    /** Lets the lease expire now (a graceful stop), if it is still held with {@code fencing}: a standby takes it at once. */
    public void release(long fencing) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE controller_lease SET expires_at = now() WHERE id = 1 AND fencing = ?")) {
            c.setAutoCommit(true);
            ps.setLong(1, fencing);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("releasing the controller lease failed: " + e.getMessage(), e);
        }
    }

    /** A transaction's statements. */
    @FunctionalInterface
    interface Work {
        void run(Connection c) throws SQLException, FencedException;
    }

    /**
     * Runs {@code work} on {@code c} in one transaction that first checks the lease still has {@code fencing} (when
     * > 0; {@link #checkFence}): committed, or rolled back and thrown.
     */
    static void fencedTransaction(Connection c, long fencing, Work work) throws SQLException, FencedException {
        c.setAutoCommit(false);
        try {
            if (fencing > 0) {
                checkFence(c, fencing);
            }
            work.run(c);
            c.commit();
        } catch (SQLException | FencedException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** Within a write transaction: throws unless the lease still has {@code fencing}, which stays so until it ends. */
    static void checkFence(Connection c, long fencing) throws SQLException, FencedException {
        try (PreparedStatement ps = c.prepareStatement(FENCE_CHECK)) {
            ps.setLong(1, fencing);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new FencedException(fencing);
                }
            }
        }
    }

    private static Seen select(Connection c, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT holder, address, fencing, expires_at, now() FROM controller_lease WHERE id = 1"
                + (lock ? " FOR UPDATE" : ""));
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("controller_lease has no row (migration V5 not applied?)");
            }
            return new Seen(new Lease(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getTimestamp(4).toInstant()),
                    rs.getTimestamp(5).toInstant());
        }
    }
}
