package dev.gantry.agent.testing;

import dev.gantry.agent.job.LaunchOrder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds launch orders: {@code anOrder().script("").workDir("rel").build()}; defaults are well formed. */
public final class Orders {
    private long jobId = 42;
    private String jobName = "train";
    private String script = "#!/bin/sh\n";
    private List<String> argv = List.of();
    private String workDir = "/work";
    private String stdout = "";
    private String stderr = "";
    private Map<String, String> environment = Map.of();
    private String partition = "gpu";
    private int numTasks;
    private int cpusOnNode;
    private long memoryMb;
    private String submitDir = "";
    private String submitHost = "login1";
    private Optional<LaunchOrder.ArrayTask> array = Optional.empty();
    private String account = "";
    private String qos = "";
    private int restartCount;

    public static Orders anOrder() {
        return new Orders();
    }

    public Orders jobId(long v) { jobId = v; return this; }

    public Orders script(String v) { script = v; return this; }

    public Orders argv(String... v) { argv = List.of(v); return this; }

    public Orders workDir(String v) { workDir = v; return this; }

    public Orders stdout(String v) { stdout = v; return this; }

    public Orders stderr(String v) { stderr = v; return this; }

    public Orders environment(Map<String, String> v) { environment = v; return this; }

    public Orders tasks(int v) { numTasks = v; return this; }

    public Orders cpusOnNode(int v) { cpusOnNode = v; return this; }

    public Orders memoryMb(long v) { memoryMb = v; return this; }

    public Orders submitDir(String v) { submitDir = v; return this; }

    /** Makes the order a job array task. */
    public Orders arrayTask(long arrayJobId, int taskId, int taskCount, int taskMin, int taskMax, int taskStep) {
        array = Optional.of(new LaunchOrder.ArrayTask(arrayJobId, taskId, taskCount, taskMin, taskMax, taskStep));
        return this;
    }

    public Orders account(String v) { account = v; return this; }

    public Orders qos(String v) { qos = v; return this; }

    public Orders restartCount(int v) { restartCount = v; return this; }

    public LaunchOrder build() {
        return new LaunchOrder(jobId, jobName, script, argv, workDir, stdout, stderr, environment, partition, numTasks,
                cpusOnNode, memoryMb, submitDir, submitHost, -1, List.of(), array, account, qos, restartCount, false);
    }
}
