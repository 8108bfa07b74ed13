package dev.gantry.common.tls;

import dev.gantry.common.failover.ControllerAddresses;
import dev.gantry.common.failover.FollowingChannel;
import io.grpc.ManagedChannel;

/** Channels of the agents, select-svc and gang-svc to scheduler-svc's internal port. */
public final class SchedulerChannels {

    private SchedulerChannels() {}

    /**
     * A channel to scheduler-svc at {@code addresses} (GANTRY_SCHEDULER_ADDRESS: one host:port, or the active
     * controller's and its standby's, comma-separated: calls follow the one that answers, {@link FollowingChannel}),
     * over mutual TLS accepting only scheduler-svc.
     */
    public static ManagedChannel open(InternalChannels channels, String addresses) {
        return FollowingChannel.open(ControllerAddresses.parse(addresses, "GANTRY_SCHEDULER_ADDRESS"),
                a -> channels.open(a, Peer.SCHEDULER));
    }

    /**
     * As {@link #open(InternalChannels, String)}, the answers of each address checked by {@code fencing}: an answer from a
     * controller older than one already heard is refused, and the calls move on to the next address.
     */
    public static ManagedChannel open(InternalChannels channels, String addresses, dev.gantry.common.failover.Fencing.Guard fencing) {
        return FollowingChannel.open(ControllerAddresses.parse(addresses, "GANTRY_SCHEDULER_ADDRESS"),
                a -> channels.open(a, Peer.SCHEDULER, fencing.learn()));
    }
}
