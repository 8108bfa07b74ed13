package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.at;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobFormatTest {

    /** Job 7: alice's "train" on n[1-2] in gpu for 1:01:01, limit 2 h, 8 CPUs. */
    private static final Job RUNNING = running(aJob(7).setPartition("gpu").setNumCpus(8).setTimeLimitSeconds(7200)
            .setMemPerNodeMb(2048).setPriority(4294901758L)
            .setSpec(aJob(7).getSpec().toBuilder().setName("train").setWorkDir("/scratch/alice")),
            3661, "n1", "n2").build();

    /** Job 8: alice's pending "job8", waiting for Resources. */
    private static final Job PENDING = aJob(8).setReason("Resources").build();

    private static String field(String format, Job job) {
        return JobFormat.parse(format).line(new JobView(JobInfos.job(job), NOW, ZoneOffset.UTC));
    }

    private static String header(String format) {
        return JobFormat.parse(format).header();
    }

    @ParameterizedTest(name = "%{0} of a running job prints \"{2}\" under {1}")
    @CsvSource(delimiter = '|', value = {
        "i | JOBID            | 7",
        "A | JOBID            | 7",
        "P | PARTITION        | gpu",
        "j | NAME             | train",
        "u | USER             | alice",
        "U | USER             | 1000",
        "G | GROUP            | 1000",
        "t | ST               | R",
        "T | STATE            | RUNNING",
        "M | TIME             | 1:01:01",
        "l | TIME_LIMIT       | 2:00:00",
        "L | TIME_LEFT        | 58:59",
        "D | NODES            | 2",
        "C | CPUS             | 8",
        "R | NODELIST(REASON) | n[1-2]",
        "N | NODELIST         | n[1-2]",
        "r | REASON           | None",
        "S | START_TIME       | 2026-11-22T10:58:59",
        "e | END_TIME         | 2026-11-22T12:58:59",
        "V | SUBMIT_TIME      | 2026-11-22T11:50:00",
        "Z | WORK_DIR         | /scratch/alice",
        "B | EXEC_HOST        | n1",
        "m | MIN_MEMORY       | 2G",
        "Q | PRIORITY         | 4294901758",
        "p | PRIORITY         | 0.99998474097810",
    })
    void eachCodeOfARunningJob(char code, String header, String value) {
        assertEquals(header, header("%" + code));
        assertEquals(value, field("%" + code, RUNNING));
    }

    @ParameterizedTest(name = "%{0} of a pending job prints \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "t | PD",
        "T | PENDING",
        "M | 0:00",
        "R | (Resources)",
        "N | ''",
        "r | Resources",
        "S | N/A",
        "e | N/A",
        "B | n/a",
    })
    void eachCodeOfAPendingJob(char code, String value) {
        assertEquals(value, field("%" + code, PENDING));
    }

    @ParameterizedTest(name = "{0} job shows {1} / {2} / %R {3}")
    @CsvSource(delimiter = '|', value = {
        "JOB_STATE_SUSPENDED     | S   | SUSPENDED     | n1",
        "JOB_STATE_COMPLETED     | CD  | COMPLETED     | n1",
        "JOB_STATE_CANCELLED     | CA  | CANCELLED     | n1",
        "JOB_STATE_FAILED        | F   | FAILED        | (NonZeroExitCode)",
        "JOB_STATE_TIMEOUT       | TO  | TIMEOUT       | (TimeLimit)",
        "JOB_STATE_NODE_FAIL     | NF  | NODE_FAIL     | n1",
        "JOB_STATE_PREEMPTED     | PR  | PREEMPTED     | n1",
        "JOB_STATE_OUT_OF_MEMORY | OOM | OUT_OF_MEMORY | n1",
    })
    void stateCodesAsSlurm(JobState state, String compact, String full, String reasonList) {
        String reason = switch (state) {
            case JOB_STATE_FAILED -> "NonZeroExitCode";
            case JOB_STATE_TIMEOUT -> "TimeLimit";
            default -> "None";
        };
        Job job = running(aJob(9), 60, "n1").setState(state).setReason(reason).build();
        assertEquals(compact + " " + full + " " + reasonList, field("%t %T %R", job));
    }

    /** Ran 2 s, then suspended 10 s ago (as the controller records it: start, last state change, earlier suspensions). */
    private static Job.Builder ranTwoSecondsThenSuspended() {
        return running(aJob(10), 12, "n1").setState(JobState.JOB_STATE_SUSPENDED)
                .setLastStateChange(at(NOW.minusSeconds(10))).setRunSeconds(2);
    }

    @Test
    void timeSuspended_isNotTimeUsed_theControllersRunTimeIsShown() {
        Job job = ranTwoSecondsThenSuspended().setTimeUsedSeconds(2).build();
        assertEquals("0:02 59:58", field("%M %L", job)); // Slurm: TIME 0:02, not 0:12
    }

    @Test
    void timeSuspended_isNotTimeUsed_evenFromAControllerThatDoesNotComputeIt() {
        assertEquals("0:02 59:58", field("%M %L", ranTwoSecondsThenSuspended().build()));
        Job resumed = running(aJob(11), 112, "n1").setSuspendSeconds(100).setRunSeconds(2)
                .setLastStateChange(at(NOW.minusSeconds(10))).build(); // 2 s, 100 s suspended, resumed 10 s ago
        assertEquals("0:12 59:48", field("%M %L", resumed));
    }

    @Test
    void aCompletingJobShowsCGAndItsNodes() {
        Job job = running(aJob(9), 60, "n3").setState(JobState.JOB_STATE_FAILED).setCompleting(true)
                .setReason("NonZeroExitCode").build();
        assertEquals("CG COMPLETING n3", field("%t %T %R", job));
    }

    @ParameterizedTest(name = "\"{0}\" prints \"{1}\"")
    @CsvSource(delimiter = '^', quoteCharacter = '"', value = {
        // right-justified, padded
        "%.6i        ^ \"     7\"",
        // left-justified, padded
        "%6i|        ^ \"7     |\"",
        // names are cut to the width, from either side
        "%.3j        ^ tra",
        "%3j|        ^ tra|",
        // durations and node lists are not cut when right-justified
        "%.3M        ^ 1:01:01",
        "%.3N        ^ n[1-2]",
        // but left-justified fields always are
        "%3N|        ^ n[1|",
        // text before the first % and after each field is printed as it is
        "id=%i,%u.   ^ id=7,alice.",
        // %% is not an escape: empty items vanish
        "%%i         ^ 7",
        // no % at all: the whole format is text
        "hello       ^ hello",
    })
    void widthsAndJustification(String format, String expected) {
        assertEquals(expected, field(format, RUNNING));
    }

    @Test
    void theReasonOfAPendingJobIsCutButNodeListsAreNot() {
        assertEquals("(Reso", field("%.5R", PENDING));
        assertEquals("n[1-2]", field("%.5R", RUNNING));
    }

    @Test
    void headersFollowTheSameRules() {
        assertEquals("   JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)",
                header("%.8i %.9P %.8j %.8u %.2t %.10M %.6D %R"));
        assertEquals("NODELIST(REASON)", header("%.5R"));
        assertEquals("PAR", header("%.3P"));
    }

    @Test
    void theDefaultFormatMatchesSlurms() {
        assertEquals("             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)",
                header(JobFormat.DEFAULT));
        assertEquals("                 7       gpu    train    alice  R    1:01:01      2 n[1-2]",
                field(JobFormat.DEFAULT, RUNNING));
        assertEquals("                 8     debug     job8    alice PD       0:00      1 (Resources)",
                field(JobFormat.DEFAULT, PENDING));
    }

    @Test
    void unknownCodesAreReportedAndPrintedLiterally() {
        JobFormat format = JobFormat.parse("%i %.5X %u");
        assertEquals(List.of('X'), format.unknownCodes());
        assertEquals("7 %.5X alice", format.line(new JobView(JobInfos.job(RUNNING), NOW, ZoneOffset.UTC)));
    }

    @Test
    void unlimitedJobsShowUnlimitedAndNoEnd() {
        Job job = running(aJob(3).setTimeLimitSeconds(-1), 60, "n1").setEndTime(at(NOW.plusSeconds(86400))).build();
        assertEquals("UNLIMITED UNLIMITED NONE", field("%l %L %e", job));
        assertEquals("UNLIM", field("%.5l", job));
    }
}
