package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Launches the agent must refuse with PERMISSION_DENIED, whatever else is right about them. */
class LaunchRefusalTest extends OnAgentRig {

    private static final long JOB = 80;
    private static final String SCRIPT = "#!/bin/bash\nsleep 600\n";

    /** Prepares the rig and returns the launch it must refuse; {@code reason} is part of the status description. */
    record Case(String name, Function<AgentRig, LaunchJobRequest> prepare, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("forged signature", rig -> rig.request(JOB, SCRIPT)
                        .setCredential(Credentials.aCredential(new CredentialSigner(CredentialKeys.generate())).job(JOB).nodes("n1").script(SCRIPT).sign())
                        .build(), "signature"),
                new Case("expired credential", rig -> rig.request(JOB, SCRIPT)
                        .setCredential(Credentials.aCredential(rig.signer).job(JOB).nodes("n1").script(SCRIPT).expiresAt(Instant.now().minusSeconds(1)).sign())
                        .build(), "expired"),
                new Case("credential for another node", rig -> rig.request(JOB, SCRIPT)
                        .setCredential(Credentials.aCredential(rig.signer).job(JOB).nodes("n2", "n3").script(SCRIPT).sign())
                        .build(), "does not name node n1"),
                new Case("credential for another job", rig -> rig.request(JOB, SCRIPT)
                        .setCredential(Credentials.aCredential(rig.signer).job(JOB + 1).nodes("n1").script(SCRIPT).sign())
                        .build(), "not job " + JOB),
                new Case("script other than the credential's", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .setScript("#!/bin/bash\nrm -rf ~\n").build(), "script does not match"),
                // the node-hijack replay: the real launch, resent with an injected PATH, directory, output, run or share
                new Case("environment changed after signing", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .putEnvironment("PATH", "/tmp/evil:/usr/bin:/bin").build(), "does not match its credential"),
                new Case("working directory changed after signing", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .setWorkDir("/tmp").build(), "does not match its credential"),
                new Case("output path changed after signing", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .setStdoutPath("/root/.bashrc").build(), "does not match its credential"),
                new Case("another run of the job", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .setRestartCount(1).build(), "does not match its credential"),
                new Case("more memory than granted", rig -> rig.signed(rig.request(JOB, SCRIPT).build()).toBuilder()
                        .setMemoryMb(1 << 20).build(), "resources do not match"),
                new Case("replayed launch", rig -> {
                    LaunchJobRequest launch = rig.signed(rig.request(JOB, SCRIPT).build());
                    rig.agent.launchJob(launch);
                    return launch;
                }, "already launched"),
                new Case("replay after the job ended", rig -> {
                    LaunchJobRequest launch = rig.signed(rig.request(JOB, "#!/bin/bash\nexit 0\n").build());
                    rig.agent.launchJob(launch);
                    rig.awaitExit(JOB);
                    // the exit is reported just before the job leaves the table
                    Await.until("job " + JOB + " out of the table", () -> !rig.supervisor.runningJobIds().contains(JOB));
                    return launch;
                }, "already launched"),
                new Case("credential issued before the job was terminated", rig -> {
                    LaunchJobRequest launch = rig.signed(rig.request(JOB, SCRIPT).build());
                    rig.terminate(JOB, 0);
                    return launch;
                }, "terminated"));
    }

    /** A used credential stays used when the agent restarts (before, the job ran twice). */
    @Test
    void aCredentialUsedBeforeAnAgentRestart_isRefusedAfterIt() {
        LaunchJobRequest launch = rig.signed(rig.request(JOB, "#!/bin/bash\nexit 0\n").build());
        rig.agent.launchJob(launch);
        rig.awaitExit(JOB);
        Await.until("job " + JOB + " out of the table", () -> !rig.supervisor.runningJobIds().contains(JOB));
        java.security.KeyPair keys = rig.keys;
        rig.close();
        rig = new AgentRig(tmp, dev.gantry.agent.process.JobTelemetry.NONE, new dev.gantry.agent.process.ProcessGroupContainment(), keys);

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.agent.launchJob(launch));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("already launched"), e.getStatus().getDescription());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void launch_isRefusedWithPermissionDenied(Case c) {
        LaunchJobRequest request = c.prepare().apply(rig);
        int runningBefore = rig.supervisor.runningJobIds().size();

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.agent.launchJob(request));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains(c.reason()), e.getStatus().getDescription());
        assertEquals(runningBefore, rig.supervisor.runningJobIds().size(), "nothing more started");
    }
}
