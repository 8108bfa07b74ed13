package dev.gantry.scheduler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.Qos;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A QOS's PreemptMode, typed at load, as ListQos shows it and as UpdateQos takes it. */
class QosProtosTest {

    @ParameterizedTest(name = "PreemptMode={0} is listed as \"{1}\"")
    @CsvSource(delimiter = '|', value = {"requeue|REQUEUE", "Suspend|SUSPEND", "off|OFF", "cancel|CANCEL", "|",
            "gang,suspend|GANG,SUSPEND", "requeue,within|WITHIN,REQUEUE"})
    void aConfiguredMode_isListedAsSlurmSpellsIt(String written, String listed) {
        var config = ConfigParser.parse(Path.of("gantry.conf"),
                "QOS=q PreemptMode=" + (written == null ? "" : written) + "\n");

        assertEquals(listed == null ? "" : listed, QosProtos.toProto(config.accounting().qos().get("q")).getPreemptMode());
    }

    @ParameterizedTest(name = "preempt_mode \"{0}\"")
    @CsvSource(delimiter = '|', value = {"REQUEUE|REQUEUE", " suspend |SUSPEND", "Off|OFF", "CANCEL|CANCEL"})
    void anEditedMode_isOneOfTheFourWords_anyCase(String given, PreemptAction action) {
        PreemptMode mode = QosProtos.fromProto(Qos.newBuilder().setName("q").setPreemptMode(given).build()).preemptMode();

        assertEquals(new PreemptMode(action, false, false), mode);
        assertEquals(action.name(), QosProtos.toProto(QosProtos.fromProto(QosProtos.toProto(
                QosProtos.fromProto(Qos.newBuilder().setName("q").setPreemptMode(given).build())))).getPreemptMode());
    }

    @ParameterizedTest(name = "preempt_mode \"{0}\"")
    @CsvSource(delimiter = '|', value = {"GANG,SUSPEND", "KILL", "WITHIN"})
    void anyOtherEditedMode_isRefused_namingTheField(String given) {
        var e = assertThrows(IllegalArgumentException.class,
                () -> QosProtos.fromProto(Qos.newBuilder().setName("q").setPreemptMode(given).build()));

        assertEquals("qos.preempt_mode: '" + given + "' is not one of OFF, CANCEL, REQUEUE, SUSPEND", e.getMessage());
    }

    @Test
    void aQosWithItsLimitsLeftUnset_limitsNothing_andChargesUsageAsIs() {
        var q = QosProtos.fromProto(Qos.newBuilder().setName("q").build());

        assertEquals(-1, q.maxWallSeconds());
        assertEquals(-1, q.maxJobsPerUser());
        assertEquals(-1, q.maxSubmitJobsPerUser());
        assertEquals(-1, q.preemptExemptTimeSeconds());
        assertEquals(1.0, q.usageFactor());
        Qos listed = QosProtos.toProto(q);
        assertEquals(false, listed.hasMaxWallSeconds() || listed.hasMaxJobsPerUser() || listed.hasMaxSubmitJobsPerUser()
                || listed.hasPreemptExemptTimeSeconds(), "an unlimited limit is listed unset: " + listed);
    }

    @Test
    void minusOne_stillMeansUnset_andZeroIsALimitOfZero() {
        var old = QosProtos.fromProto(Qos.newBuilder().setName("q").setMaxWallSeconds(-1).setMaxJobsPerUser(-1).build());
        var zero = QosProtos.fromProto(Qos.newBuilder().setName("q").setMaxJobsPerUser(0).setUsageFactor(0).build());

        assertEquals(-1, old.maxWallSeconds());
        assertEquals(-1, old.maxJobsPerUser());
        assertEquals(0, zero.maxJobsPerUser());
        assertEquals(0.0, zero.usageFactor(), "set: free");
        assertEquals(0, QosProtos.toProto(zero).getMaxJobsPerUser());
        assertEquals(true, QosProtos.toProto(zero).hasMaxJobsPerUser());
        var e = assertThrows(IllegalArgumentException.class,
                () -> QosProtos.fromProto(Qos.newBuilder().setName("q").setMaxWallSeconds(-2).build()));
        assertEquals("qos.max_wall_seconds: -2 must be 0 or more, or -1 (unlimited)", e.getMessage());
    }

    @Test
    void noEditedMode_isTheClusters() {
        assertNull(QosProtos.fromProto(Qos.newBuilder().setName("q").build()).preemptMode());
    }
}
