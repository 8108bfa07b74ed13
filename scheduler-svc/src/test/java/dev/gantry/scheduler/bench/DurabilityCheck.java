package dev.gantry.scheduler.bench;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.gantry.api.v1.Job;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Reads the jobs table directly and checks every acknowledged submission against it: its row exists, holds a
 * valid gantry.v1.Job, and that job is the one submitted (same name, the job id the client was given).
 */
final class DurabilityCheck {
    private DurabilityCheck() {}

    /**
     * @param missing acknowledged ids with no row
     * @param wrong acknowledged ids whose row holds another job, or no valid one
     * @param duplicates ids acknowledged to two submissions
     */
    record Outcome(int acknowledged, int rows, List<Long> missing, List<Long> wrong, List<Long> duplicates) {
        boolean passed() {
            return missing.isEmpty() && wrong.isEmpty() && duplicates.isEmpty() && acknowledged > 0;
        }
    }

    /** @param acknowledged job id → the name it was submitted under */
    static Outcome check(DataSource db, Map<Long, String> acknowledged, List<Long> duplicates) throws SQLException {
        Map<Long, Job> rows = new HashMap<>();
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT job_id, job FROM jobs")) {
            while (rs.next()) {
                try {
                    rows.put(rs.getLong(1), Job.parseFrom(rs.getBytes(2)));
                } catch (InvalidProtocolBufferException e) {
                    rows.put(rs.getLong(1), null);
                }
            }
        }
        List<Long> missing = new ArrayList<>();
        List<Long> wrong = new ArrayList<>();
        acknowledged.forEach((id, name) -> {
            if (!rows.containsKey(id)) {
                missing.add(id);
                return;
            }
            Job j = rows.get(id);
            if (j == null || j.getJobId() != id || !j.getSpec().getName().equals(name)) {
                wrong.add(id);
            }
        });
        return new Outcome(acknowledged.size(), rows.size(), missing, wrong, duplicates);
    }
}
