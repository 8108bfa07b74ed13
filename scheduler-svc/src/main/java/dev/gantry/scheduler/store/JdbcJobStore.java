package dev.gantry.scheduler.store;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.model.JobRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
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

    /**
     * All rows of a group commit in one statement: one array per column, unnested into rows. One statement in
     * autocommit is one transaction and one round trip (a JDBC batch needs a second one for COMMIT). Its first part
     * stores the scripts and environments the rows name by digest ({@link JobTexts}) that the table does not hold yet.
     */
    private static final String UPSERT = """
            WITH texts AS (
              INSERT INTO job_texts (digest, body) SELECT * FROM unnest(?::bytea[], ?::bytea[])
              ON CONFLICT (digest) DO NOTHING
            )
            INSERT INTO jobs (job_id, user_name, partition, state, submit_time, start_time, end_time, exit_code, job,
              script_digest, env_digest)
            SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::timestamptz[],
              ?::timestamptz[], ?::integer[], ?::bytea[], ?::bytea[], ?::bytea[])
            %s
            ON CONFLICT (job_id) DO UPDATE SET user_name = EXCLUDED.user_name, partition = EXCLUDED.partition,
              state = EXCLUDED.state, submit_time = EXCLUDED.submit_time, start_time = EXCLUDED.start_time,
              end_time = EXCLUDED.end_time, exit_code = EXCLUDED.exit_code, job = EXCLUDED.job,
              script_digest = EXCLUDED.script_digest, env_digest = EXCLUDED.env_digest
            """;

    /**
     * {@link #UPSERT} that writes no job unless the controller lease still has this controller's fencing number, which
     * the row lock (FOR SHARE) keeps so until the statement's transaction ends: still one statement, one round trip.
     * (A deposed controller may still add texts: they are content, named by their digest, and harmless.)
     */
    private static final String FENCED_UPSERT = UPSERT.formatted(
            "WHERE EXISTS (SELECT 1 FROM controller_lease WHERE id = 1 AND fencing = ? FOR SHARE)");
    private static final String PLAIN_UPSERT = UPSERT.formatted("");

    /** A job row with its script and environment, stored apart, joined back. */
    private static final String SELECT = """
            SELECT j.job, s.body, e.body, j.script_digest IS NOT NULL AND s.body IS NULL,
              j.env_digest IS NOT NULL AND e.body IS NULL
            FROM jobs j LEFT JOIN job_texts s ON s.digest = j.script_digest LEFT JOIN job_texts e ON e.digest = j.env_digest
            """;

    private final JobTexts texts = new JobTexts();
    private final DataSource dataSource;
    /** This controller's fencing number, 0 while it writes unfenced (tests, tools). */
    private volatile long fencing;

    public JdbcJobStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * From now on every write checks, in its own transaction, that the controller lease still has {@code fencing};
     * one that finds another throws {@link FencedException} and writes nothing.
     */
    public void fence(long fencing) {
        this.fencing = fencing;
    }

    /**
     * {@inheritDoc} A job listed twice is written once, its last version: the whole list is one INSERT, which may
     * not upsert the same key twice. Without step changes (most batches) the INSERT is the whole transaction, in
     * autocommit; with some, they follow it in one explicit transaction.
     */
    @Override
    public void write(List<JobRecord> jobs, List<StepChange> steps) throws StoreException {
        if (steps.isEmpty()) {
            write(jobs);
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            LeaseTable.fencedTransaction(c, fencing, tx -> {
                if (!jobs.isEmpty()) {
                    upsert(tx, jobs, 0);
                }
                StepTable.apply(tx, steps);
            });
        } catch (SQLException e) {
            throw new StoreException("writing " + jobs.size() + " job(s) and " + steps.size() + " step change(s) failed: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void write(List<JobRecord> jobs) throws StoreException {
        if (jobs.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            upsert(c, jobs, fencing);
        } catch (SQLException e) {
            throw new StoreException("writing " + jobs.size() + " job(s) failed: " + e.getMessage(), e);
        }
    }

    @Override
    public StoredSteps loadSteps() throws StoreException {
        try (Connection c = dataSource.getConnection()) {
            return StepTable.load(c);
        } catch (SQLException e) {
            throw new StoreException("loading job steps failed: " + e.getMessage(), e);
        }
    }

    /** @param fencing checked in the statement itself when > 0 (autocommit); 0 when the transaction checked it */
    private void upsert(Connection c, List<JobRecord> jobs, long fencing) throws SQLException, FencedException {
        Collection<JobRecord> rows = jobs;
        if (jobs.size() > 1) {
            Map<Long, JobRecord> last = new LinkedHashMap<>();
            jobs.forEach(j -> last.put(j.id(), j));
            rows = last.size() == jobs.size() ? jobs : last.values();
        }
        int n = rows.size();
        Long[] ids = new Long[n];
        String[] users = new String[n];
        String[] partitions = new String[n];
        String[] states = new String[n];
        Timestamp[] submitted = new Timestamp[n];
        Timestamp[] started = new Timestamp[n];
        Timestamp[] ended = new Timestamp[n];
        Integer[] exitCodes = new Integer[n];
        byte[][] encoded = new byte[n][];
        byte[][] scriptDigests = new byte[n][];
        byte[][] envDigests = new byte[n][];
        JobTexts.Batch batch = texts.batch();
        int i = 0;
        for (JobRecord j : rows) {
            ids[i] = j.id();
            users[i] = j.user();
            partitions[i] = j.partition();
            states[i] = j.state().name();
            submitted[i] = Timestamp.from(j.submitTime());
            started[i] = j.startTime() == null ? null : Timestamp.from(j.startTime());
            ended[i] = j.endTime() == null ? null : Timestamp.from(j.endTime());
            exitCodes[i] = j.exitCode();
            // the row without script and environment: they are stored once, by digest
            encoded[i] = JobProtos.toProtoWithoutTexts(j).toByteArray();
            scriptDigests[i] = batch.script(j.request().script());
            envDigests[i] = batch.environment(j.request().environment());
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement(fencing > 0 ? FENCED_UPSERT : PLAIN_UPSERT)) {
            ps.setArray(1, c.createArrayOf("bytea", batch.digests()));
            ps.setArray(2, c.createArrayOf("bytea", batch.bodies()));
            ps.setArray(3, c.createArrayOf("bigint", ids));
            ps.setArray(4, c.createArrayOf("text", users));
            ps.setArray(5, c.createArrayOf("text", partitions));
            ps.setArray(6, c.createArrayOf("text", states));
            ps.setArray(7, c.createArrayOf("timestamptz", submitted));
            ps.setArray(8, c.createArrayOf("timestamptz", started));
            ps.setArray(9, c.createArrayOf("timestamptz", ended));
            ps.setArray(10, c.createArrayOf("integer", exitCodes));
            ps.setArray(11, c.createArrayOf("bytea", encoded));
            ps.setArray(12, c.createArrayOf("bytea", scriptDigests));
            ps.setArray(13, c.createArrayOf("bytea", envDigests));
            if (fencing > 0) {
                ps.setLong(14, fencing);
            }
            if (ps.executeUpdate() == 0 && fencing > 0) { // every row is inserted or updated, unless the fence said no
                throw new FencedException(fencing);
            }
        }
    }

    @Override
    public List<JobRecord> loadCurrent(Instant finishedSince) throws StoreException {
        String sql = SELECT + "WHERE j.state IN ('PENDING','RUNNING','SUSPENDED') OR j.end_time >= ? ORDER BY j.job_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(finishedSince));
            ps.setFetchSize(10_000); // a cursor (in a transaction): a queue of a million jobs is not one result in memory
            List<JobRecord> out = new ArrayList<>();
            JobTexts.Reader reader = texts.reader();
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(decode(rs, reader));
                }
            } finally {
                c.rollback(); // a read: nothing to keep; and a failed one must not hide its error behind a commit's
                c.setAutoCommit(auto);
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("loading jobs failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<JobRecord> find(long jobId) throws StoreException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(SELECT + "WHERE j.job_id = ?")) {
            ps.setLong(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(decode(rs, texts.reader())) : Optional.empty();
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

    /** A row of {@link #SELECT}: the job, its script and environment put back (a row from before V6 has them inline). */
    private static JobRecord decode(ResultSet rs, JobTexts.Reader reader) throws SQLException {
        Job job;
        try {
            job = Job.parseFrom(rs.getBytes(1));
        } catch (InvalidProtocolBufferException e) {
            throw new SQLException("stored job is not a valid gantry.v1.Job: " + e.getMessage(), e);
        }
        if (rs.getBoolean(4) || rs.getBoolean(5)) { // never written so: refuse to run a job without its script
            throw new SQLException("job " + job.getJobId() + ": its " + (rs.getBoolean(4) ? "script" : "environment")
                    + " is missing from job_texts");
        }
        byte[] script = rs.getBytes(2);
        byte[] environment = rs.getBytes(3);
        if (script != null || environment != null) {
            var spec = job.getSpec().toBuilder();
            if (script != null) {
                spec.setScript(reader.script(script));
            }
            if (environment != null) {
                spec.putAllEnvironment(reader.environment(environment));
            }
            job = job.toBuilder().setSpec(spec).build();
        }
        return JobProtos.fromProto(job);
    }
}
