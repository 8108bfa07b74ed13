package dev.gantry.scheduler.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against a real (embedded) PostgreSQL: values are replaced whole and survive a restart. */
class JdbcStateStoreTest {

    @TempDir
    Path stateDir;

    @Test
    void aValueIsReplacedWhole_andSurvivesARestart() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcStateStore store = new JdbcStateStore(db.dataSource());
            assertEquals(Optional.empty(), store.get("qos-edits"));
            store.put("qos-edits", new byte[] {1, 2, 3});
            store.put("qos-edits", new byte[] {4});
            store.put("fairshare", new byte[] {9, 9});
        }
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcStateStore store = new JdbcStateStore(db.dataSource());
            assertArrayEquals(new byte[] {4}, store.get("qos-edits").orElseThrow());
            assertArrayEquals(new byte[] {9, 9}, store.get("fairshare").orElseThrow());
        }
    }
}
