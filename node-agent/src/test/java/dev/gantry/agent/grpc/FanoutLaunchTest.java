package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.FanoutRig;
import dev.gantry.api.v1.LaunchJobResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Multi-node launches with real processes: the controller's one LaunchJob reaches every node through the agents'
 * TreeWidth forwarding; the batch script runs on the batch host only; every other node verifies the credential,
 * runs the prolog and holds the allocation until terminated; a forward that fails fails the launch naming the node.
 */
class FanoutLaunchTest {

    private static final List<String> THREE = List.of("n1", "n2", "n3");

    @ParameterizedTest(name = "TreeWidth={0}: n1 forwards {1}, n2 forwards {2}")
    @CsvSource({"1, 1, 1", "2, 2, 0", "50, 2, 0"})
    void oneLaunch_reachesAllThreeAgents_inATreeOfTheGivenWidth(int width, int n1Forwards, int n2Forwards, @TempDir Path tmp) throws Exception {
        Path prolog = tmp.resolve("prolog.sh");
        Path seen = Files.createDirectories(tmp.resolve("seen"));
        Files.writeString(prolog, "#!/bin/sh\necho \"$SLURM_JOB_ID\" > " + seen + "/\"$SLURMD_NODENAME\"\n");
        prolog.toFile().setExecutable(true);
        try (FanoutRig rig = new FanoutRig(tmp, 3, SiteScripts.of(prolog.toString(), "", Duration.ofSeconds(30)))) {
            String script = "#!/bin/sh\necho \"batch on $SLURMD_NODENAME of $SLURM_JOB_NUM_NODES after $(ls " + seen + " | wc -l) prologs\"\n";
            LaunchJobResponse response = rig.first().launchJob(rig.launch(7, script, width, THREE, THREE));

            assertEquals(Set.copyOf(THREE), Set.copyOf(response.getLaunchedNodesList()));
            assertEquals(n1Forwards, rig.node("n1").forwardsOk.get());
            assertEquals(n2Forwards, rig.node("n2").forwardsOk.get());
            assertEquals(0, rig.node("n3").forwardsOk.get());
            assertEquals(Set.of("n1", "n2", "n3"), new TreeSet<>(List.of(seen.toFile().list())), "the prolog ran on every node");
            Path out = rig.workDir.resolve("slurm-7.out");
            Await.until("the batch script's output", () -> Files.exists(out) && readQuietly(out).contains("batch"));
            assertEquals("batch on n1 of 3 after 3 prologs\n", Files.readString(out),
                    "the batch script ran once, on the batch host, after every node's prolog");
            Await.until("n1's exit report", () -> rig.node("n1").exitReported(7));
            assertEquals(List.of(7L), rig.node("n2").supervisor.runningJobIds(), "n2 holds the allocation until terminated");
            assertEquals(List.of(7L), rig.node("n3").supervisor.runningJobIds(), "n3 holds the allocation until terminated");

            for (String n : List.of("n2", "n3")) {
                rig.node(n).supervisor.terminate(7, Duration.ZERO, "job over");
                Await.until(n + "'s exit report", () -> rig.node(n).exitReported(7));
            }
        }
    }

    @Test
    void anUnreachableNode_failsTheLaunchAborted_namingTheNode(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.NONE)) {
            List<String> nodes = List.of("n1", "n2", "n9");
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> rig.first().launchJob(rig.launch(8, "#!/bin/sh\necho ran\n", 1, nodes, nodes)));

            assertEquals(Status.Code.ABORTED, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().startsWith("node n9: agent unreachable"), e.getStatus().getDescription());
            assertEquals("n9", e.getTrailers().get(LaunchForwarder.FAILED_NODE));
            assertEquals(1, rig.node("n2").forwardsFailed.get(), "n2 was the one that could not reach n9");
            assertEquals(List.of(), rig.node("n1").supervisor.runningJobIds(), "the batch host started nothing");
            Path out = rig.workDir.resolve("slurm-8.out");
            assertEquals("", Files.exists(out) ? readQuietly(out) : "", "the batch script never ran (its prepared output file stays empty)");
            Await.until("the batch host's prepared process killed", () -> processesMentioning(tmp.resolve("spool-n1").resolve("job8")).isEmpty());
        }
    }

    @Test
    void theBatchHost_preparesItsPartWhileTheForwardIsUnderWay_andRunsTheScriptOnlyOnceItSucceeded(@TempDir Path tmp) throws Exception {
        Path gate = tmp.resolve("gate");
        Path prolog = tmp.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\n[ \"$SLURMD_NODENAME\" != n2 ] && exit 0\nwhile [ ! -e " + gate + " ]; do sleep 0.02; done\n");
        prolog.toFile().setExecutable(true);
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.of(prolog.toString(), "", Duration.ofSeconds(60)))) {
            List<String> two = List.of("n1", "n2");
            var call = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> rig.first().launchJob(rig.launch(10, "#!/bin/sh\necho ran\n", 50, two, two)));
            Path spool = tmp.resolve("spool-n1").resolve("job10");

            Await.until("n1's prepared process, while n2's prolog holds the forward", () -> !processesMentioning(spool).isEmpty());
            Path out = rig.workDir.resolve("slurm-10.out");
            assertEquals("", Files.exists(out) ? readQuietly(out) : "", "the script waits for n2");
            assertTrue(!call.isDone(), "the launch answers only once n2 holds its part");

            Files.createFile(gate);
            assertEquals(Set.of("n1", "n2"), Set.copyOf(call.get(60, java.util.concurrent.TimeUnit.SECONDS).getLaunchedNodesList()));
            Await.until("the batch script's output", () -> readQuietly(out).equals("ran\n"));
            rig.node("n2").supervisor.terminate(10, Duration.ZERO, "job over");
        }
    }

    @Test
    void aNodeTheCredentialDoesNotName_refusesItsPart_andTheLaunchFailsWithItsReason(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 3, SiteScripts.NONE)) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> rig.first().launchJob(rig.launch(9, "#!/bin/sh\ntrue\n", 50, THREE, List.of("n1", "n2"))));

            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().startsWith("node n3: "), e.getStatus().getDescription());
            assertEquals(List.of(), rig.node("n3").supervisor.runningJobIds());
            assertEquals(List.of(), rig.node("n1").supervisor.runningJobIds(), "the batch host started nothing");
        }
    }

    /** Live processes whose command line mentions {@code path} (a job's spool directory). */
    private static List<Long> processesMentioning(Path path) {
        List<Long> pids = new java.util.ArrayList<>();
        java.io.File[] entries = new java.io.File("/proc").listFiles((d, n) -> n.chars().allMatch(Character::isDigit));
        for (java.io.File e : entries == null ? new java.io.File[0] : entries) {
            try {
                String cmdline = new String(Files.readAllBytes(e.toPath().resolve("cmdline"))).replace('\0', ' ');
                if (cmdline.contains(path.toString())) {
                    pids.add(Long.parseLong(e.getName()));
                }
            } catch (java.io.IOException gone) {
                // ended meanwhile
            }
        }
        return pids;
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
