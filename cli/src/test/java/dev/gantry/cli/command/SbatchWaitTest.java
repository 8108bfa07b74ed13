package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobState;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** sbatch --wait blocks until the job ends and exits with the job's exit code, as Slurm's does. */
class SbatchWaitTest {

    private static FakeController cluster() {
        return new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withNode(aNode("n1", "debug").build());
    }

    @ParameterizedTest(name = "a job ending {0} with {1}:{2} makes sbatch exit {3}")
    @CsvSource({
        "JOB_STATE_COMPLETED, 0, 0, 0",
        "JOB_STATE_FAILED,    3, 0, 3",
        "JOB_STATE_CANCELLED, 0, 15, 1",
        "JOB_STATE_TIMEOUT,   0, 0, 1",
    })
    void exitsWithTheJobsExitCode(JobState state, int exitCode, int signal, int expected) {
        try (CliHarness cli = new CliHarness(cluster().endingSubmittedJobsAs(state, exitCode, signal))) {
            assertEquals(new Result(expected, "Submitted batch job 1\n", ""), cli.run("sbatch", "--wait", "--wrap", "true"));
        }
    }

    @Test
    void pollsWhenTheControllerCannotWatch() {
        try (CliHarness cli = new CliHarness(cluster().withoutWatchJobs()
                .endingSubmittedJobsAs(JobState.JOB_STATE_FAILED, 7, 0))) {
            assertEquals(new Result(7, "1\n", ""), cli.run("sbatch", "-W", "--parsable", "--wrap", "false"));
        }
    }

    @Test
    void theDirectiveWorksToo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("w.sh"), "#!/bin/sh\n#SBATCH --wait\nexit 4\n");
        try (CliHarness cli = new CliHarness(cluster().endingSubmittedJobsAs(JobState.JOB_STATE_FAILED, 4, 0))
                .inDirectory(dir)) {
            assertEquals(4, cli.run("sbatch", "w.sh").exitCode());
        }
    }

    /** A controller that restarts ends its watchers with UNAVAILABLE: sbatch watches again and still gets the end. */
    @Test
    void watchesAgain_whenTheControllerRestarts() throws Exception {
        FakeController controller = cluster();
        try (CliHarness cli = new CliHarness(controller)) {
            CompletableFuture<Result> sbatch = CompletableFuture.supplyAsync(() -> cli.run("sbatch", "-W", "--wrap", "sleep 1"));
            awaitWatches(controller);
            controller.endWatches(io.grpc.Status.UNAVAILABLE.withDescription("controller shutting down"));
            awaitWatches(controller);
            assertFalse(sbatch.isDone(), "sbatch still waits for its job");
            controller.end(1, JobState.JOB_STATE_FAILED, 5);
            assertEquals(new Result(5, "Submitted batch job 1\n", ""), sbatch.get(30, TimeUnit.SECONDS));
        }
    }

    private static void awaitWatches(FakeController controller) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (controller.openWatches() == 0 && Instant.now().isBefore(deadline)) {
            Thread.sleep(10);
        }
        assertEquals(1, controller.openWatches(), "sbatch is watching its job");
    }

    @Test
    void waitsUntilARunningJobEnds() throws Exception {
        FakeController controller = cluster();
        try (CliHarness cli = new CliHarness(controller)) {
            CompletableFuture<Result> sbatch = CompletableFuture.supplyAsync(() -> cli.run("sbatch", "-W", "--wrap", "sleep 1"));
            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (controller.openWatches() == 0 && Instant.now().isBefore(deadline)) {
                Thread.sleep(10);
            }
            assertEquals(1, controller.openWatches(), "sbatch is watching its job");
            assertFalse(sbatch.isDone(), "sbatch still waits while the job is pending");
            controller.end(1, JobState.JOB_STATE_COMPLETED, 0);
            Result r = sbatch.get(30, TimeUnit.SECONDS);
            assertEquals(new Result(0, "Submitted batch job 1\n", ""), r);
            assertTrue(controller.job(1).isPresent());
        }
    }
}
