package dev.gantry.gang.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.common.events.ClusterEventListener;
import dev.gantry.gang.grpc.GangStatus;
import dev.gantry.gang.grpc.GangStatusSource;
import dev.gantry.gang.model.GangReplica;
import dev.gantry.gang.model.GangView;
import dev.gantry.gang.model.PartitionJobs;
import dev.gantry.gang.model.GangChange;
import dev.gantry.gang.slice.Allocated;
import dev.gantry.gang.slice.GangSettings;
import dev.gantry.gang.slice.PartitionDecision;
import dev.gantry.gang.slice.SliceOutcome;
import dev.gantry.gang.slice.Timeslicer;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The gang replica and timeslicer the event stream keeps current, shared between the stream's thread, the
 * {@link TimesliceLoop} and GetGangState calls.
 *
 * <p>Thread-safety: every method synchronizes on this object; readers only copy. Unlike select-svc, the last state is
 * still reported while the stream is down: GetGangState says what gang-svc tracks, with the revision it is at. No
 * slice is taken while the stream is down (the replica may be stale); it resumes with the next snapshot.
 *
 * <p>The gang settings (the cluster PreemptMode and SchedulerTimeSlice) come with each snapshot, as everything else
 * gang-svc knows: a controller restarted with another config brings new ones. Until the first snapshot nothing is
 * sliced.
 */
@Singleton
public final class LiveGang implements ClusterEventListener, GangStatusSource {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveGang.class);

    /** Decisions still to send, with the replica's epoch and revision they were computed at. */
    public record Pending(String epoch, long revision, List<PartitionDecision> decisions) {}

    private final InstantSource clock;
    private final GangMeters meters;
    private final Counter eventsAppliedCounter;
    private final MultiGauge jobsGauge;
    // Guarded by this.
    private GangSettings settings;
    private GangReplica replica;
    private Timeslicer slicer;
    private boolean streamLive;
    private long eventsApplied;
    private Runnable onDecisions = () -> { };

    @Inject
    public LiveGang(MeterRegistry registry) {
        this(registry, InstantSource.system());
    }

    public LiveGang(MeterRegistry registry, InstantSource clock) {
        this.clock = clock;
        this.meters = new GangMeters(registry);
        this.eventsAppliedCounter = Counter.builder("gantry.gang.events.applied")
                .description("Allocation events (added, changed, released) applied since gang-svc started")
                .register(registry);
        this.jobsGauge = MultiGauge.builder("gantry.gang.jobs")
                .description("Jobs holding resources per partition, running or suspended")
                .register(registry);
    }

    /** The settings of the last snapshot; empty before the first. */
    public synchronized Optional<GangSettings> settings() {
        return Optional.ofNullable(settings);
    }

    /** Run whenever an event or a rebuild led to decisions, on the stream's thread and outside this lock; must not block. */
    public synchronized void onDecisions(Runnable listener) {
        this.onDecisions = listener;
    }

    @Override
    public void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        boolean send;
        synchronized (this) {
            List<Allocated> allocations = SliceInputs.allocations(snapshot);
            replica = GangReplica.fromSnapshot(epoch, revision, SliceInputs.partitionNames(snapshot),
                    allocations.stream().map(SliceInputs::holding).toList());
            GangSettings next = SliceInputs.settings(snapshot);
            if (!next.equals(settings)) {
                LOG.info("PreemptMode={} SchedulerTimeSlice={}s: cluster-wide gang scheduling {}",
                        snapshot.getGang().getPreemptMode(), next.timeSlice().toSeconds(), next.clusterGang() ? "on" : "off");
            }
            settings = next;
            slicer = Timeslicer.rebuild(settings, SliceInputs.rule(snapshot), SliceInputs.nodes(snapshot),
                    SliceInputs.partitions(snapshot, settings), allocations, clock.instant());
            streamLive = true;
            send = decided(slicer.reconcile(clock.instant()));
            publishGauges();
        }
        notifyIf(send);
    }

    /** Applies one change; throws (and the follower resyncs) if it does not follow the replica's revision. */
    @Override
    public void onEvent(ClusterEvent event) {
        boolean send;
        synchronized (this) {
            if (replica == null) {
                throw new IllegalStateException("event at revision " + event.getRevision() + " before any snapshot");
            }
            GangChange change = SliceInputs.change(event);
            replica.apply(event.getEpoch(), event.getRevision(), change);
            send = decided(switch (event.getEventCase()) {
                case ALLOCATION_ADDED -> slicer.allocationAdded(SliceInputs.allocated(event.getAllocationAdded()), clock.instant());
                case ALLOCATION_CHANGED -> slicer.allocationChanged(SliceInputs.allocated(event.getAllocationChanged()), clock.instant());
                case ALLOCATION_RELEASED -> slicer.released(event.getAllocationReleased(), clock.instant());
                case NODE_CHANGED -> {
                    slicer.nodeChanged(SliceInputs.node(event.getNodeChanged()));
                    yield SliceOutcome.NONE;
                }
                case SNAPSHOT, EVENT_NOT_SET -> SliceOutcome.NONE;
            });
            // an event answering an earlier request may leave a newer decision to send (it changed meanwhile)
            send |= event.hasAllocationChanged() && slicer.isOutstanding(event.getAllocationChanged().getJobId());
            if (change.isAllocation()) {
                eventsApplied++;
                eventsAppliedCounter.increment();
                publishGauges();
            }
        }
        notifyIf(send);
    }

    @Override
    public synchronized void onStreamClosed(Status status) {
        streamLive = false;
    }

    /** One SchedulerTimeSlice elapsed: rotates every partition with a waiting job (not while the stream is down). */
    public synchronized SliceOutcome slice() {
        if (slicer == null || !streamLive) {
            return SliceOutcome.NONE;
        }
        SliceOutcome outcome = slicer.slice(clock.instant());
        decided(outcome);
        return outcome;
    }

    /**
     * What the controller still has to apply, at the replica's epoch and revision, marked as being sent: the caller
     * must report each decision's fate with {@link #applied} or {@link #failed}. Empty when nothing is outstanding.
     */
    public synchronized Optional<Pending> take() {
        if (slicer == null || !streamLive) {
            return Optional.empty();
        }
        List<PartitionDecision> decisions = slicer.take();
        return decisions.isEmpty() ? Optional.empty() : Optional.of(new Pending(replica.epoch(), replica.revision(), decisions));
    }

    /**
     * The controller's answer to one ApplySlice ({@code decision}, as sent); returns whether it led to new decisions.
     * What it refused (decided on a view older than the job's latest change, or a resume onto a running job's
     * resources) is outstanding again, to be decided anew once the newer events are in.
     */
    public synchronized boolean applied(PartitionDecision decision, List<Long> suspended, List<Long> resumed,
                                        List<Long> skipped, List<Long> refused) {
        if (slicer == null) {
            return false;
        }
        if (!refused.isEmpty()) {
            slicer.failed(decision.only(refused));
        }
        return decided(slicer.applied(suspended, resumed, skipped, clock.instant()));
    }

    /** An ApplySlice carrying {@code decision} failed; it is outstanding again (for the next slice). */
    public synchronized void failed(PartitionDecision decision) {
        if (slicer != null) {
            slicer.failed(decision);
        }
    }

    @Override
    public synchronized GangStatus currentStatus() {
        if (replica == null) {
            return new GangStatus(GangView.EMPTY, eventsApplied);
        }
        return new GangStatus(new GangView(replica.epoch(), replica.revision(), slicer.view()), eventsApplied);
    }

    private boolean decided(SliceOutcome outcome) {
        meters.record(outcome);
        return !outcome.decisions().isEmpty();
    }

    private void notifyIf(boolean send) {
        Runnable listener;
        synchronized (this) {
            listener = onDecisions;
        }
        if (send) {
            listener.run();
        }
    }

    /** One running and one suspended row per partition (as the controller reports them); rows of partitions no longer known are dropped. */
    private void publishGauges() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (PartitionJobs partition : replica.view().partitions()) {
            rows.add(MultiGauge.Row.of(Tags.of("partition", partition.partition(), "state", "running"), partition.running()));
            rows.add(MultiGauge.Row.of(Tags.of("partition", partition.partition(), "state", "suspended"), partition.suspended()));
        }
        jobsGauge.register(rows, true);
    }
}
