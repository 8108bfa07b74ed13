package dev.gantry.gang.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.common.events.ClusterEventListener;
import dev.gantry.gang.grpc.GangStatus;
import dev.gantry.gang.grpc.GangStatusSource;
import dev.gantry.gang.model.GangReplica;
import dev.gantry.gang.model.GangView;
import dev.gantry.gang.model.PartitionJobs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;

/**
 * The gang replica the event stream keeps current, shared between the stream's thread and GetGangState calls.
 *
 * <p>Thread-safety: every method synchronizes on this object; readers only copy. Unlike select-svc, the last state is
 * still reported while the stream is down: GetGangState says what gang-svc tracks, with the revision it is at.
 */
@Singleton
public final class LiveGang implements ClusterEventListener, GangStatusSource {

    private final Counter eventsAppliedCounter;
    private final MultiGauge jobsGauge;
    // Guarded by this.
    private GangReplica replica;
    private long eventsApplied;

    public LiveGang(MeterRegistry registry) {
        this.eventsAppliedCounter = Counter.builder("gantry.gang.events.applied")
                .description("Allocation events (added, changed, released) applied since gang-svc started")
                .register(registry);
        this.jobsGauge = MultiGauge.builder("gantry.gang.jobs")
                .description("Jobs holding resources per partition, running or suspended")
                .register(registry);
    }

    @Override
    public synchronized void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        replica = GangReplica.fromSnapshot(epoch, revision, snapshot);
        publishGauges();
    }

    /** Applies one change; throws (and the follower resyncs) if it does not follow the replica's revision. */
    @Override
    public synchronized void onEvent(ClusterEvent event) {
        if (replica == null) {
            throw new IllegalStateException("event at revision " + event.getRevision() + " before any snapshot");
        }
        replica.apply(event);
        if (GangReplica.isAllocationEvent(event)) {
            eventsApplied++;
            eventsAppliedCounter.increment();
            publishGauges();
        }
    }

    @Override
    public synchronized GangStatus currentStatus() {
        return new GangStatus(replica == null ? GangView.EMPTY : replica.view(), eventsApplied);
    }

    /** One running and one suspended row per partition; rows of partitions no longer known are dropped. */
    private void publishGauges() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (PartitionJobs partition : replica.view().partitions()) {
            rows.add(MultiGauge.Row.of(Tags.of("partition", partition.partition(), "state", "running"), partition.running()));
            rows.add(MultiGauge.Row.of(Tags.of("partition", partition.partition(), "state", "suspended"), partition.suspended()));
        }
        jobsGauge.register(rows, true);
    }
}
