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
    void noEditedMode_isTheClusters() {
        assertNull(QosProtos.fromProto(Qos.newBuilder().setName("q").build()).preemptMode());
    }
}
