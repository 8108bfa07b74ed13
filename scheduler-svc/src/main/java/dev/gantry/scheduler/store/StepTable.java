package dev.gantry.scheduler.store;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Step;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The job_steps and job_step_numbering tables (migration V4): step changes applied in order inside the caller's
 * transaction, and read back at start. A step is stored as a {@code gantry.v1.Step} with its own fields (job, step id,
 * name, start time, nodes, task count, argv, its job's run time when it started).
 */
final class StepTable {
    private StepTable() {}

    private static final String INSERT_STEP = """
            INSERT INTO job_steps (job_id, step_id, step) VALUES (?, ?, ?)
            ON CONFLICT (job_id, step_id) DO UPDATE SET step = EXCLUDED.step
            """;
    private static final String NUMBER = """
            INSERT INTO job_step_numbering (job_id, next_step_id) VALUES (?, ?)
            ON CONFLICT (job_id) DO UPDATE
              SET next_step_id = GREATEST(job_step_numbering.next_step_id, EXCLUDED.next_step_id)
            """;

    /** Applies the changes in order, on {@code c} (the caller commits). */
    static void apply(Connection c, List<StepChange> changes) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT_STEP);
                PreparedStatement number = c.prepareStatement(NUMBER);
                PreparedStatement end = c.prepareStatement("DELETE FROM job_steps WHERE job_id = ? AND step_id = ?");
                PreparedStatement goneSteps = c.prepareStatement("DELETE FROM job_steps WHERE job_id = ?");
                PreparedStatement goneNumbering = c.prepareStatement("DELETE FROM job_step_numbering WHERE job_id = ?")) {
            for (StepChange change : changes) {
                switch (change) {
                    case StepChange.Created created -> {
                        StepRegistry.Step s = created.step();
                        insert.setLong(1, s.jobId());
                        insert.setInt(2, s.stepId());
                        insert.setBytes(3, encode(s));
                        insert.executeUpdate();
                        number.setLong(1, s.jobId());
                        number.setInt(2, s.stepId() + 1);
                        number.executeUpdate();
                    }
                    case StepChange.Ended ended -> {
                        end.setLong(1, ended.jobId());
                        end.setInt(2, ended.stepId());
                        end.executeUpdate();
                    }
                    case StepChange.JobGone gone -> {
                        goneSteps.setLong(1, gone.jobId());
                        goneSteps.executeUpdate();
                        goneNumbering.setLong(1, gone.jobId());
                        goneNumbering.executeUpdate();
                    }
                }
            }
        }
    }

    static JobStore.StoredSteps load(Connection c) throws SQLException {
        List<StepRegistry.Step> steps = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT step FROM job_steps ORDER BY job_id, step_id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                steps.add(decode(rs.getBytes(1)));
            }
        }
        Map<Long, Integer> next = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, next_step_id FROM job_step_numbering");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                next.put(rs.getLong(1), rs.getInt(2));
            }
        }
        return new JobStore.StoredSteps(steps, next);
    }

    private static byte[] encode(StepRegistry.Step s) {
        Step.Builder b = Step.newBuilder().setJobId(s.jobId()).setStepId(Integer.toString(s.stepId())).setName(s.name())
                .setStartTime(Timestamp.newBuilder().setSeconds(s.startTime().getEpochSecond()).setNanos(s.startTime().getNano()))
                .addAllNodes(s.nodes()).setNumTasks(s.numTasks()).addAllArgv(s.argv());
        if (s.jobRunSecondsAtStart() != StepRegistry.Step.UNKNOWN) {
            b.setJobRunSecondsAtStart(s.jobRunSecondsAtStart());
        }
        return b.build().toByteArray();
    }

    private static StepRegistry.Step decode(byte[] bytes) throws SQLException {
        try {
            Step p = Step.parseFrom(bytes);
            return new StepRegistry.Step(p.getJobId(), Integer.parseInt(p.getStepId()), p.getName(), p.getNodesList(),
                    p.getNumTasks(), p.getArgvList(), Instant.ofEpochSecond(p.getStartTime().getSeconds(), p.getStartTime().getNanos()),
                    p.hasJobRunSecondsAtStart() ? p.getJobRunSecondsAtStart() : StepRegistry.Step.UNKNOWN);
        } catch (InvalidProtocolBufferException | NumberFormatException e) {
            throw new SQLException("stored step is not a valid gantry.v1.Step: " + e.getMessage(), e);
        }
    }
}
