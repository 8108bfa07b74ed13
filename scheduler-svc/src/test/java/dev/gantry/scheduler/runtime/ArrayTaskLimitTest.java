package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.JobRequests;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SchedulerParameters=max_array_tasks caps the tasks of one array below MaxArraySize (slurm.conf(5)). */
class ArrayTaskLimitTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                SchedulerParameters=max_array_tasks=3
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60
                """);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    static JobSpec.Builder array(String indexes) {
        return JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("root").setUid(0).setGid(0)
                .setWorkDir("/tmp").setName("job").setArray(indexes);
    }

    @Test
    void anArrayOfMaxArrayTasks_isAccepted_oneMoreIsRefusedNamingTheLimit() {
        h.controller.submit(JobRequests.fromProto(array("0-2").build())).join();
        CompletionException e = assertThrows(CompletionException.class,
                () -> h.controller.submit(JobRequests.fromProto(array("0-3").build())).join());
        assertTrue(e.getCause() instanceof Controller.RejectedSubmission, e.toString());
        assertTrue(e.getCause().getMessage().contains("4 tasks exceed max_array_tasks=3"), e.getCause().getMessage());
    }

    @Test
    void idsMayStillGoUpToMaxArraySize_onlyTheCountIsCapped() {
        h.controller.submit(JobRequests.fromProto(array("100,500,1000").build())).join(); // accepted: three tasks, ids below 1001
    }
}
