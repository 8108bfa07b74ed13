package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.testing.AgentRig;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent contains a new job's process from the outside while it waits for "go": when that fails, the launch
 * fails and nothing of the job runs (never a job outside its cgroups).
 */
class UncontainedLaunchTest {

    @TempDir
    Path tmp;

    AgentRig rig;

    @BeforeEach
    void start() {
        rig = new AgentRig(tmp, JobTelemetry.NONE, new Unjoinable(new ProcessGroupContainment()));
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void processThatCannotJoinItsCgroups_isKilledBeforeTheScriptRuns_andTheLaunchFails() {
        Path marker = tmp.resolve("ran");

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.launchJob(rig.request(9, "#!/bin/sh\ntouch " + marker + "\n").build()));

        assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
        assertEquals("cannot join the job's cgroups: cgroup.procs: Permission denied", e.getStatus().getDescription());
        assertTrue(rig.supervisor.runningJobIds().isEmpty());
        assertFalse(Files.exists(rig.spoolDir.resolve("job9")), "spool cleaned up");
        assertFalse(Files.exists(marker), "the script did not run");
    }

    /** A containment whose groups refuse every process, as a cgroup the agent may not write would. */
    private record Unjoinable(Containment inner) implements Containment {
        @Override
        public String mode() {
            return inner.mode();
        }

        @Override
        public JobGroup create(long jobId, long memoryMb) throws IOException {
            JobGroup g = inner.create(jobId, memoryMb);
            return new JobGroup() {
                @Override
                public String id() {
                    return g.id();
                }

                @Override
                public List<Path> joinFiles() {
                    return g.joinFiles();
                }

                @Override
                public void join(long pid) throws IOException {
                    throw new java.nio.file.AccessDeniedException("cgroup.procs");
                }

                @Override
                public void started(long leaderPid) {
                    g.started(leaderPid);
                }

                @Override
                public boolean holds(long pid) {
                    return g.holds(pid);
                }

                @Override
                public void signal(int signal) {
                    g.signal(signal);
                }

                @Override
                public void freeze() {
                    g.freeze();
                }

                @Override
                public void thaw() {
                    g.thaw();
                }

                @Override
                public boolean isEmpty() {
                    return g.isEmpty();
                }

                @Override
                public boolean outOfMemory() {
                    return g.outOfMemory();
                }

                @Override
                public void release() {
                    g.release();
                }

                @Override
                public String descriptor() {
                    return g.descriptor();
                }
            };
        }

        @Override
        public JobGroup adopt(long jobId, String descriptor, long leaderPid) {
            return inner.adopt(jobId, descriptor, leaderPid);
        }

        @Override
        public Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups) {
            return inner.sample(groups);
        }

        @Override
        public void sweep(Set<Long> keep) {
            inner.sweep(keep);
        }
    }
}
