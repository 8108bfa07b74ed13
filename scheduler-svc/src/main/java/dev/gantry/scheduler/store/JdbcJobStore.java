package dev.gantry.scheduler.store;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** {@link JobStore} on PostgreSQL through JDBC. */
public final class JdbcJobStore implements JobStore {

    private static final String UPSERT = """
            INSERT INTO jobs (job_id, user_name, partition, state, submit_time, start_time, end_time, exit_code, job)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (job_id) DO UPDATE SET user_name = EXCLUDED.user_name, partition = EXCLUDED.partition,
              state = EXCLUDED.state, submit_time = EXCLUDED.submit_time, start_time = EXCLUDED.start_time,
              end_time = EXCLUDED.end_time, exit_code = EXCLUDED.exit_code, job = EXCLUDED.job
            """;

    private final DataSource dataSource;

    public JdbcJobStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * {@inheritDoc} A job listed twice is written once, its last version. The rows go as a JDBC batch, which the
     * driver sends as multi-row INSERTs ({@code reWriteBatchedInserts}, set by {@link Database}); one such statement
     * may not upsert the same key twice, hence the de-duplication.
     */
    @Override
    public void write(List<JobRecord> jobs) throws StoreException {
        if (jobs.isEmpty()) {
            return;
        }
        Collection<JobRecord> rows = jobs;
        if (jobs.size() > 1) {
            Map<Long, JobRecord> last = new LinkedHashMap<>();
            jobs.forEach(j -> last.put(j.id(), j));
            rows = last.size() == jobs.size() ? jobs : last.values();
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
                for (JobRecord j : rows) {
                    ps.setLong(1, j.id());
                    ps.setString(2, j.user());
                    ps.setString(3, j.partition());
                    ps.setString(4, j.state().name());
                    ps.setTimestamp(5, Timestamp.from(j.submitTime()));
                    setInstant(ps, 6, j.startTime());
                    setInstant(ps, 7, j.endTime());
                    ps.setInt(8, j.exitCode());
                    ps.setBytes(9, JobProtos.toProto(j).toByteArray());
                    ps.addBatch();
                }
                ps.executeBatch();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("writing " + jobs.size() + " job(s) failed: " + e.getMessage(), e);
        }
    }

    @Override
    public List<JobRecord> loadCurrent(Instant finishedSince) throws StoreException {
        String sql = "SELECT job FROM jobs WHERE state IN ('PENDING','RUNNING','SUSPENDED') OR end_time >= ? ORDER BY job_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(finishedSince));
            List<JobRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(decode(rs.getBytes(1)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("loading jobs failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<JobRecord> find(long jobId) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT job FROM jobs WHERE job_id = ?")) {
            ps.setLong(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(decode(rs.getBytes(1))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("reading job " + jobId + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public long maxJobId() throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(job_id), 0) FROM jobs");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new StoreException("reading the highest job id failed: " + e.getMessage(), e);
        }
    }

    private static JobRecord decode(byte[] bytes) throws SQLException {
        try {
            return JobProtos.fromProto(Job.parseFrom(bytes));
        } catch (InvalidProtocolBufferException e) {
            throw new SQLException("stored job is not a valid gantry.v1.Job: " + e.getMessage(), e);
        }
    }

    private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setTimestamp(i, Timestamp.from(t));
        }
    }
}
