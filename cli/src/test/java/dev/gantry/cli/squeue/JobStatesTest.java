package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
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
        "PD                  | JOB_STATE_PENDING                     | false",
        "pending             | JOB_STATE_PENDING                     | false",
        "R,pd                | JOB_STATE_RUNNING JOB_STATE_PENDING   | false",
        "CG                  | ''                                    | true",
        "completing,R        | JOB_STATE_RUNNING                     | true",
        "cd,CA,f,TO,NF,PR,OOM | JOB_STATE_COMPLETED JOB_STATE_CANCELLED JOB_STATE_FAILED JOB_STATE_TIMEOUT JOB_STATE_NODE_FAIL JOB_STATE_PREEMPTED JOB_STATE_OUT_OF_MEMORY | false",
        "out_of_memory,s     | JOB_STATE_OUT_OF_MEMORY JOB_STATE_SUSPENDED | false",
        "BF,CF               | ''                                    | false",
    })
    void parsesShortAndLongNamesInAnyCase(String list, String states, boolean completing) {
        Set<JobState> expected = states.isBlank() ? EnumSet.noneOf(JobState.class)
                : Arrays.stream(states.trim().split("\\s+")).map(JobState::valueOf).collect(Collectors.toSet());
        JobStates.StateFilter filter = JobStates.parse(list);
        assertEquals(expected, filter.states());
        assertEquals(completing, filter.completing());
    }

    @Test
    void allSelectsEverything() {
        JobStates.StateFilter all = JobStates.parse("ALL");
        assertTrue(all.all());
        assertTrue(all.matches(aJob(1).setState(JobState.JOB_STATE_COMPLETED).build()));
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
        Job completing = aJob(1).setState(JobState.JOB_STATE_COMPLETED).setCompleting(true).build();
        assertEquals(false, JobStates.parse("CD").matches(completing));
        assertEquals(true, JobStates.parse("CG").matches(completing));
        assertEquals("CG", JobStates.compact(completing));
        assertEquals("COMPLETING", JobStates.full(completing));
    }
}
