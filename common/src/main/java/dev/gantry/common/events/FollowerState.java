package dev.gantry.common.events;

/** Where a {@link ClusterEventFollower} is in its life: only {@link #LIVE} means the listener's replica is current. */
public enum FollowerState {
    /** Created, {@link ClusterEventFollower#start()} not called yet. */
    NEW,
    /** A stream is open (or opening) and its snapshot has not arrived yet. */
    CONNECTING,
    /** The current stream delivered its snapshot: every change since then has reached the listener, in order. */
    LIVE,
    /** The last stream failed or ended; a new one opens after the backoff delay. */
    WAITING_TO_RETRY,
    /** {@link ClusterEventFollower#close()} was called; no stream opens again. */
    CLOSED
}
