package dev.gantry.scheduler.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path stateDir;

    /** A submission is acknowledged once committed: the commit must mean the WAL is on disk (zonky defaults to off). */
    @Test
    void embeddedDatabase_flushesTheWalBeforeACommitReturns() throws Exception {
        try (Database db = Database.embedded(stateDir, 2);
                Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            assertEquals("on", show(s, "synchronous_commit"));
            assertEquals("on", show(s, "fsync"));
        }
    }

    private static String show(Statement s, String setting) throws Exception {
        try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
