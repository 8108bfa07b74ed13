package dev.gantry.select.runtime;

import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.events.ReconnectBackoff;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.Peer;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows scheduler-svc's event stream (gantry.scheduler-address, from GANTRY_SCHEDULER_ADDRESS: its internal port)
 * over mutual TLS into the {@link LiveReplica} from start-up until shutdown, reconnecting as long as it runs.
 */
@Context
public final class SchedulerEventsClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerEventsClient.class);

    private final ClusterEventFollower follower;

    public SchedulerEventsClient(@Value("${gantry.scheduler-address}") String schedulerAddress, LiveReplica replica,
            InternalChannels channels) {
        LOG.info("following cluster events from scheduler-svc at {}", schedulerAddress);
        this.follower = ClusterEventFollower.owning(channels.open(schedulerAddress, Peer.SCHEDULER), "select-svc", replica,
                ReconnectBackoff.DEFAULT);
        follower.start();
    }

    @PreDestroy
    @Override
    public void close() {
        follower.close();
    }
}
