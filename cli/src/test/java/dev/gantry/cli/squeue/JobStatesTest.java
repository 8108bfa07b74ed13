package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobStatesTest {

    @ParameterizedTest(name = "-t {0} selects {1} (completing: {2})")
    @CsvSource(delimiter = '|', value = {
        "PD                   | PENDING                                                             | false",
        "pending              | PENDING                                                             | false",
        "R,pd                 | RUNNING PENDING                                                     | false",
        "CG                   | ''                                                                  | true",
        "completing,R         | RUNNING                                                             | true",
        "cd,CA,f,TO,NF,PR,OOM | COMPLETED CANCELLED FAILED TIMEOUT NODE_FAIL PREEMPTED OUT_OF_MEMORY | false",
        "out_of_memory,s      | OUT_OF_MEMORY SUSPENDED                                             | false",
        "BF,CF                | ''                                                                  | false",
    })
    void parsesShortAndLongNamesInAnyCase(String list, String states, boolean completing) {
        Set<JobStatus> expected = states.isBlank() ? EnumSet.noneOf(JobStatus.class)
                : Arrays.stream(states.trim().split("\\s+")).map(JobStatus::valueOf).collect(Collectors.toSet());
        JobStates.StateFilter filter = JobStates.parse(list);
        assertEquals(expected, filter.states());
        assertEquals(completing, filter.completing());
    }

    @Test
    void allSelectsEverything() {
        JobStates.StateFilter all = JobStates.parse("ALL");
        assertTrue(all.all());
        assertTrue(all.matches(JobInfos.job(aJob(1).setState(dev.gantry.api.v1.JobState.JOB_STATE_COMPLETED)
                .build())));
    }

    @Test
    void unknownNamesAreRefusedWithSlurmsTwoLines() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobStates.parse("R,bogus"));
        String[] lines = e.getMessage().split("\n");
        assertEquals("Invalid job state specified: bogus", lines[0]);
        assertTrue(lines[1].startsWith("Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,"));
    }

    @Test
    void aCompletingJobMatchesOnlyCompleting() {
        JobInfo completing = JobInfos.job(aJob(1).setState(dev.gantry.api.v1.JobState.JOB_STATE_COMPLETED)
                .setCompleting(true).build());
        assertEquals(false, JobStates.parse("CD").matches(completing));
        assertEquals(true, JobStates.parse("CG").matches(completing));
        assertEquals("CG", JobStates.compact(completing));
        assertEquals("COMPLETING", JobStates.full(completing));
    }
}
