package dev.gantry.scheduler;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** Test builders: {@code aJob().nodes(3).partition("hipri")}, and small cluster configs. */
public final class Fixtures {
    private Fixtures() {}

    public static final Instant T0 = Instant.parse("2026-11-22T06:00:00Z");

    /** Four 4-CPU 8 GiB nodes in partition debug (default, MaxTime 1 hour), two 8-CPU nodes in big. */
    public static ClusterConfig config() {
        return ConfigParser.parse(Path.of("test.conf"), """
                NodeName=n[1-4] CPUs=4 RealMemory=8192
                NodeName=b[1-2] CPUs=8 RealMemory=16384
                PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
                PartitionName=big Nodes=b[1-2] MaxTime=UNLIMITED MaxNodes=1 PriorityTier=5
                PartitionName=closed Nodes=n1 State=INACTIVE
                PartitionName=paused Nodes=n2 State=DOWN
                """);
    }

    /** What alice submits by default: a one-line script in /tmp, every resource left to the defaults. */
    public static JobRequest.Builder aRequest() {
        return JobRequest.builder().script("#!/bin/sh\ntrue\n").user("alice").uid(1000).gid(1000).workDir("/tmp")
                .name("job");
    }

    public static JobBuilder aJob(long id) {
        return new JobBuilder(id);
    }

    /** A pending job builder. */
    public static final class JobBuilder {
        private final long id;
        private int nodes = 1;
        private int tasks = 1;
        private int cpusPerTask = 1;
        private long mem = 0;
        private List<String> partitions = List.of("debug");
        private long priority = 100;
        private Instant submit = T0;

        JobBuilder(long id) {
            this.id = id;
        }

        public JobBuilder nodes(int n) { nodes = n; tasks = Math.max(tasks, n); return this; }
        public JobBuilder tasks(int n) { tasks = n; return this; }
        public JobBuilder cpusPerTask(int n) { cpusPerTask = n; return this; }
        public JobBuilder mem(long mb) { mem = mb; return this; }
        public JobBuilder partitions(String... p) { partitions = List.of(p); return this; }
        public JobBuilder priority(long p) { priority = p; return this; }
        public JobBuilder submitted(Instant t) { submit = t; return this; }

        public JobRecord build() {
            return new JobRecord(id, aRequest().build(), "job" + id, "alice", 1000, 1000, partitions,
                    new ResourceAsk(nodes, nodes, tasks, cpusPerTask, mem), 3600, JobState.PENDING, false,
                    PendingReason.NONE, partitions.get(0), List.of(), submit, null, null, submit, 0, 0, priority,
                    JobControls.NONE, null, 0);
        }
    }
}
