package dev.gantry.scheduler.submit;

import static dev.gantry.scheduler.Fixtures.aRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.SchedulerParameters;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.scheduler.model.JobRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sizes checked at submission: the script against SchedulerParameters=max_script_size, the environment against its
 * 1 MiB, both in UTF-8 bytes; and the client API's message limit that lets every such submission reach the check.
 */
class SubmissionSizesTest {

    private static final int FOUR_MIB = 4 << 20;

    private static ClusterConfig config(String schedulerParameters) {
        return ConfigParser.parse(Path.of("test.conf"), """
                NodeName=n[1-4] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
                """ + schedulerParameters);
    }

    /** A shell script of exactly {@code bytes} bytes (UTF-8), padded with a comment of {@code pad}. */
    private static String scriptOf(int bytes, char pad) {
        String head = "#!/bin/sh\ntrue\n#";
        int padBytes = String.valueOf(pad).getBytes(StandardCharsets.UTF_8).length;
        int room = bytes - head.length() - 1;
        StringBuilder s = new StringBuilder(bytes).append(head);
        s.append(String.valueOf(pad).repeat(room / padBytes)).append("x".repeat(room % padBytes)).append('\n');
        assertEquals(bytes, s.toString().getBytes(StandardCharsets.UTF_8).length);
        return s.toString();
    }

    private static SubmissionPolicy.Decision check(SubmissionPolicy policy, JobRequest.Builder request) {
        return policy.check(request.build());
    }

    @ParameterizedTest(name = "{0} bytes, at most {1}: accepted")
    @CsvSource({
            "4194303, 4194304, ''",
            "4194304, 4194304, ''",
            "1023, 1024, 'SchedulerParameters=max_script_size=1024'",
            "1024, 1024, 'SchedulerParameters=max_script_size=1024'"})
    void scriptUpToTheLimit_isAccepted(int bytes, int limit, String parameters) {
        SubmissionPolicy policy = new SubmissionPolicy(config(parameters));
        assertInstanceOf(SubmissionPolicy.Accepted.class, check(policy, aRequest().script(scriptOf(bytes, '-'))));
    }

    @ParameterizedTest(name = "{0} bytes, at most {1}: refused")
    @CsvSource({
            "4194305, 4194304, ''",
            "5242880, 4194304, ''",
            "1025, 1024, 'SchedulerParameters=max_script_size=1024'",
            "4194304, 1024, 'SchedulerParameters=max_script_size=1024'"})
    void scriptOverTheLimit_isRefusedNamingTheFieldTheLimitAndTheOption(int bytes, int limit, String parameters) {
        SubmissionPolicy policy = new SubmissionPolicy(config(parameters));
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class, check(policy, aRequest().script(scriptOf(bytes, '-'))));
        assertEquals("script", r.field());
        assertEquals("script: " + bytes + " bytes exceeds the limit of " + limit
                + " bytes (SchedulerParameters=max_script_size)", r.message());
    }

    @Test
    void scriptSize_isCountedInUtf8Bytes_notCharacters() {
        SubmissionPolicy policy = new SubmissionPolicy(config("SchedulerParameters=max_script_size=1024"));
        String twoByteChars = scriptOf(1026, 'é'); // 1026 bytes in 522 characters
        assertTrue(twoByteChars.length() < 1024);
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class, check(policy, aRequest().script(twoByteChars)));
        assertTrue(r.message().startsWith("script: 1026 bytes exceeds the limit of 1024 bytes"), r.message());
        assertInstanceOf(SubmissionPolicy.Accepted.class, check(policy, aRequest().script(scriptOf(1024, '€'))));
    }

    /** Variables of {@code each} counted bytes ("KEY=VALUE" and its NUL) that come to exactly {@code total}. */
    private static Map<String, String> environmentOf(int total, int each) {
        Map<String, String> env = new LinkedHashMap<>();
        int left = total;
        for (int i = 0; left > 0; i++) {
            String key = "V" + i;
            int size = Math.min(each, left);
            assertTrue(size >= key.length() + 2, "the last variable still holds its name");
            env.put(key, "x".repeat(size - key.length() - 2));
            left -= size;
        }
        return env;
    }

    @ParameterizedTest(name = "{0} bytes: accepted")
    @ValueSource(ints = {SubmissionPolicy.MAX_ENVIRONMENT_BYTES - 1, SubmissionPolicy.MAX_ENVIRONMENT_BYTES})
    void environmentUpToItsLimit_isAccepted(int bytes) {
        SubmissionPolicy policy = new SubmissionPolicy(config(""));
        assertInstanceOf(SubmissionPolicy.Accepted.class,
                check(policy, aRequest().environment(environmentOf(bytes, 100_000))));
    }

    @Test
    void environmentOverItsLimit_isRefusedNamingTheFieldAndTheLimit() {
        SubmissionPolicy policy = new SubmissionPolicy(config(""));
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class,
                check(policy, aRequest().environment(environmentOf(SubmissionPolicy.MAX_ENVIRONMENT_BYTES + 1, 100_000))));
        assertEquals("environment", r.field());
        assertEquals("environment: 1048577 bytes (as KEY=VALUE strings) exceeds the limit of 1048576 bytes", r.message());
    }

    @Test
    void environment_isCountedInUtf8Bytes() {
        SubmissionPolicy policy = new SubmissionPolicy(config(""));
        String value = "é".repeat(SubmissionPolicy.MAX_ENVIRONMENT_BYTES / 2); // half as many characters as bytes
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class, check(policy, aRequest().environment(Map.of("A", value))));
        assertTrue(r.message().startsWith("environment: 1048579 bytes"), r.message());
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @ValueSource(strings = {"", "plain ascii", "é and ß", "€ sign", "emoji 😀 and 𝄞", "lone \uD800 high", "lone \uDC00 low"})
    void utf8Bytes_isWhatTheEncoderWrites(String text) {
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length + (text.contains("lone") ? 2 : 0),
                SubmissionPolicy.utf8Bytes(text), "a lone surrogate counts 3 bytes, where String.getBytes writes '?'");
    }

    @Test
    void aSubmissionAtBothLimits_fitsTheClientApisMessageLimit_evenWithTheEnvironmentInItsCostliestForm() {
        Map<String, String> tiny = new LinkedHashMap<>();
        long counted = 0;
        for (int i = 0; counted + 5 <= SubmissionPolicy.MAX_ENVIRONMENT_BYTES; i++) {
            String key = Integer.toString(i, Character.MAX_RADIX); // short and distinct, empty values
            tiny.put(key, "");
            counted += key.length() + 2;
        }
        SubmissionPolicy policy = new SubmissionPolicy(config(""));
        String script = scriptOf(FOUR_MIB, '-');
        assertInstanceOf(SubmissionPolicy.Accepted.class, check(policy, aRequest().script(script).environment(tiny)));
        SubmitJobRequest wire = SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder().setScript(script)
                .putAllEnvironment(tiny).setUser("alice").setWorkDir("/tmp").setName("job").addArgv("a".repeat(1 << 20)))
                .build();
        assertTrue(wire.getSerializedSize() < SubmissionPolicy.maxMessageBytes(FOUR_MIB),
                wire.getSerializedSize() + " bytes on the wire, limit " + SubmissionPolicy.maxMessageBytes(FOUR_MIB));
    }

    @Test
    void theClientApisMessageLimit_atGantrysLargestMaxScriptSize_leavesALaunchRoomUnderTheInternalLimit() {
        int largest = SubmissionPolicy.maxMessageBytes(SchedulerParameters.MAX_SCRIPT_SIZE_BOUND);
        assertEquals((128 << 20) + (3 << 20) + (4 << 20), largest);
        assertTrue(largest + (64 << 20) <= InternalServer.MAX_MESSAGE_BYTES,
                "a job's launch (its whole request and the allocation) must fit one internal message");
        assertEquals(FOUR_MIB + (7 << 20), SubmissionPolicy.maxMessageBytes(SchedulerParameters.DEFAULT_MAX_SCRIPT_BYTES));
    }
}
