package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeysTest {

    private static final ClusterConfig EMPTY = ConfigParser.parse(Path.of("empty.conf"), "");

    @Test
    void unsetKeys_answerSlurmDefaults() {
        assertEquals(30L, EMPTY.get(Keys.KILL_WAIT));
        assertEquals(300L, EMPTY.get(Keys.MIN_JOB_AGE));
        assertEquals(30L, EMPTY.get(Keys.SCHEDULER_TIME_SLICE));
        assertEquals(300L, EMPTY.get(Keys.SLURMD_TIMEOUT));
        assertEquals("select/cons_tres", EMPTY.get(Keys.SELECT_TYPE));
        assertEquals("sched/backfill", EMPTY.get(Keys.SCHEDULER_TYPE));
        assertEquals("preempt/none", EMPTY.get(Keys.PREEMPT_TYPE));
        assertEquals(PreemptMode.OFF, EMPTY.get(Keys.PREEMPT_MODE));
        assertEquals(7L * 86400, EMPTY.get(Keys.PRIORITY_DECAY_HALF_LIFE));
        assertEquals(1, EMPTY.get(Keys.FIRST_JOB_ID));
        assertEquals(SchedulerParameters.DEFAULT, EMPTY.get(Keys.SCHEDULER_PARAMETERS));
        assertEquals(PreemptParameters.DEFAULT, EMPTY.get(Keys.PREEMPT_PARAMETERS));
        assertFalse(EMPTY.settings().isSet(Keys.KILL_WAIT));
        assertEquals(List.of(), EMPTY.nodes());
        assertEquals(List.of(), EMPTY.partitions());
        assertTrue(EMPTY.defaultPartition().isEmpty());
    }

    @ParameterizedTest(name = "{0}={1} is {2} seconds")
    @CsvSource({
        "KillWait, 0, 0",
        "SchedulerTimeSlice, 5, 5",
        "PriorityDecayHalfLife, 14-0, 1209600",
        "PriorityCalcPeriod, 5, 300",
        "OverTimeLimit, 2, 120",
        "OverTimeLimit, UNLIMITED, -1",
    })
    void timeKeys_areStoredInSeconds(String key, String value, long seconds) {
        ClusterConfig c = ConfigParser.parse(Path.of("t.conf"), key + "=" + value);
        assertEquals(seconds, c.get(Keys.all().get(key.toLowerCase(Locale.ROOT))));
    }

    @Test
    void schedulerTimeSliceOfZero_isRefused() {
        var e = assertThrows(ConfigException.class,
                () -> ConfigParser.parse(Path.of("t.conf"), "SchedulerTimeSlice=0"));
        assertEquals(List.of("t.conf:1: SchedulerTimeSlice: 0 seconds is out of range 1..65533"), e.problems());
    }

    @Test
    void ignoredSlurmKeys_giveWarningsNotErrors() {
        ClusterConfig c = ConfigParser.parse(Path.of("slurm.conf"), """
                ClusterName=c
                SlurmdUser=root
                # logs
                SlurmctldLogFile=/var/log/slurmctld.log CredType=cred/munge
                """);
        assertEquals(List.of(
                "slurm.conf:2: SlurmdUser: accepted for compatibility, not used by Gantry",
                "slurm.conf:4: SlurmctldLogFile: accepted for compatibility, not used by Gantry",
                "slurm.conf:4: CredType: accepted for compatibility, not used by Gantry"), c.warnings());
        assertEquals("c", c.get(Keys.CLUSTER_NAME));
    }

    @Test
    void authenticationKeys_areRead_withGantrysLocalAuthenticatorByDefault() {
        ClusterConfig c = ConfigParser.parse(Path.of("slurm.conf"), """
                AuthType=auth/munge
                AuthInfo=socket=/run/munge/munge.socket.2
                AuthAltTypes=auth/jwt
                AuthAltParameters=jwt_key=/etc/slurm/jwt_hs256.key
                PrivateData=jobs,Usage
                """);
        assertEquals("auth/munge", c.get(Keys.AUTH_TYPE));
        assertEquals(List.of("socket=/run/munge/munge.socket.2"), c.get(Keys.AUTH_INFO));
        assertEquals(List.of("auth/jwt"), c.get(Keys.AUTH_ALT_TYPES));
        assertEquals(List.of("jwt_key=/etc/slurm/jwt_hs256.key"), c.get(Keys.AUTH_ALT_PARAMETERS));
        assertEquals(List.of("jobs", "usage"), c.get(Keys.PRIVATE_DATA));
        assertEquals("auth/local", ConfigParser.parse(Path.of("c"), "ClusterName=c\n").get(Keys.AUTH_TYPE));
    }

    @Test
    void unknownAuthenticationTypesAndPrivateDataKinds_areRefusedWithTheirLine() {
        for (String bad : List.of("AuthType=auth/none", "AuthAltTypes=auth/kerberos", "PrivateData=secrets")) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                    () -> ConfigParser.parse(Path.of("slurm.conf"), bad + "\n"));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("slurm.conf:1: " + bad.split("=")[0]), e.getMessage());
        }
    }

    @Test
    void slurmUser_isRead_andDefaultsToRoot() {
        assertEquals("slurm", ConfigParser.parse(Path.of("slurm.conf"), "SlurmUser=slurm").get(Keys.SLURM_USER));
        assertEquals("root", ConfigParser.parse(Path.of("slurm.conf"), "ClusterName=c").get(Keys.SLURM_USER));
    }

    @Test
    void byName_isCaseInsensitive_andAllListsEveryKeyInDeclarationOrder() {
        assertSame(Keys.KILL_WAIT, Keys.byName("KILLWAIT"));
        assertSame(Keys.KILL_WAIT, Keys.byName("killwait"));
        assertNull(Keys.byName("NoSuchKey"));
        assertEquals("ClusterName", Keys.all().values().iterator().next().name());
        for (var entry : Keys.all().entrySet()) {
            assertEquals(entry.getKey(), entry.getValue().name().toLowerCase(Locale.ROOT));
            assertFalse(Keys.IGNORED_SLURM_KEYS.contains(entry.getKey()), entry.getKey() + " is both used and ignored");
        }
    }

    @Test
    void settingsWith_replacesOneValueAndLeavesTheOriginal() {
        Settings changed = EMPTY.settings().with(Keys.KILL_WAIT, 5L);
        assertEquals(5L, changed.get(Keys.KILL_WAIT));
        assertTrue(changed.isSet(Keys.KILL_WAIT));
        assertEquals(30L, EMPTY.get(Keys.KILL_WAIT));
    }
}
