package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * gang-svc's time-slicing and shadow decisions, applied on the controller thread: a suspended job stops being
 * charged usage and its suspended time is kept out of its run time and its time limit.
 */
public final class GangSlices {

    private final Controller controller;

    GangSlices(Controller controller) {
        this.controller = controller;
    }

    /** What an ApplySlice did. */
    public record SliceOutcome(List<Long> suspended, List<Long> resumed, List<Long> skipped) {}

    /** gang-svc's decision: suspends and resumes jobs where that still applies; durable before the answer. */
    public CompletableFuture<SliceOutcome> applySlice(List<Long> suspend, List<Long> resume) {
        return controller.call(() -> {
            Instant now = controller.clock.instant();
            List<Long> suspended = new ArrayList<>();
            List<Long> resumed = new ArrayList<>();
            List<Long> skipped = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : suspend) {
                JobRecord j = controller.state.job(id);
                if (j == null || j.state() != JobState.RUNNING || j.completing()) {
                    skipped.add(id);
                    continue;
                }
                JobRecord s = j.toBuilder().state(JobState.SUSPENDED, now).build();
                controller.state.put(s);
                controller.priorities.stopped(j, now);
                writes.add(controller.writer.write(s));
                controller.events.publish(ClusterEvent.newBuilder().setAllocationChanged(ClusterProtos.allocation(s)));
                controller.launcher.suspendOrResume(s, true);
                suspended.add(id);
            }
            for (long id : resume) {
                JobRecord j = controller.state.job(id);
                if (j == null || j.state() != JobState.SUSPENDED || j.completing()) {
                    skipped.add(id);
                    continue;
                }
                JobRecord r = j.toBuilder().suspendedSeconds(suspendedUntil(j, now)).state(JobState.RUNNING, now).build();
                controller.state.put(r);
                controller.priorities.started(r, now);
                writes.add(controller.writer.write(r));
                controller.events.publish(ClusterEvent.newBuilder().setAllocationChanged(ClusterProtos.allocation(r)));
                controller.launcher.suspendOrResume(r, false);
                resumed.add(id);
            }
            controller.metrics.slice(suspended.size(), resumed.size());
            if (!resumed.isEmpty() || !suspended.isEmpty()) {
                controller.trigger();
            }
            return new SliceBatch(new SliceOutcome(suspended, resumed, skipped), writes);
        }).thenCompose(b -> CompletableFuture.allOf(b.writes.toArray(CompletableFuture[]::new)).thenApply(v -> b.outcome));
    }

    private record SliceBatch(SliceOutcome outcome, List<CompletableFuture<Void>> writes) {}

    /** Seconds a job spent suspended up to {@code at}, counting a suspension still in progress. */
    static long suspendedUntil(JobRecord j, Instant at) {
        long s = j.suspendedSeconds();
        if (j.state() == JobState.SUSPENDED && j.lastStateChange() != null) {
            s += Math.max(0, at.getEpochSecond() - j.lastStateChange().getEpochSecond());
        }
        return s;
    }

}
