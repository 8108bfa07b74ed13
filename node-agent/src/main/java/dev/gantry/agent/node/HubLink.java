package dev.gantry.agent.node;

import java.time.Duration;
import java.util.Optional;

/**
 * The agent's side of its link to the controller (AgentHub), as decisions over call results: register first
 * and after every failure (capped backoff while the controller is unreachable), heartbeat every interval the
 * controller asks for, register again when a heartbeat fails or names another controller epoch (the controller
 * restarted and must learn this node's running jobs again) or none (the controller set this node DOWN for not
 * responding, e.g. while this agent was frozen or cut off, and must reconcile its runs before taking it back).
 *
 * <p>Each step carries {@code news} only when the link changes state, so the runtime logs once per change and
 * not once per retry. Not thread-safe: one caller drives it (the hub session's single scheduled task).
 */
public final class HubLink {

    public enum Action { REGISTER, HEARTBEAT }

    /** What to call next and when; {@code news} is a log line for a change of state. */
    public record Step(Action action, Duration after, Optional<String> news) {}

    private enum State { NEW, CONNECTED, UNREACHABLE }

    private final Backoff backoff;
    private final Duration defaultInterval;
    private State state = State.NEW;
    private String epoch;
    private Duration interval;
    private int failures;

    /** @param defaultInterval the heartbeat interval when the controller names none (or a non-positive one) */
    public HubLink(Backoff backoff, Duration defaultInterval) {
        this.backoff = backoff;
        this.defaultInterval = defaultInterval;
        this.interval = defaultInterval;
    }

    public Step start() {
        return new Step(Action.REGISTER, Duration.ZERO, Optional.empty());
    }

    public Step registered(String controllerEpoch, long heartbeatIntervalSeconds) {
        boolean changed = state != State.CONNECTED || !controllerEpoch.equals(epoch);
        state = State.CONNECTED;
        epoch = controllerEpoch;
        failures = 0;
        interval = heartbeatIntervalSeconds > 0 ? Duration.ofSeconds(heartbeatIntervalSeconds) : defaultInterval;
        Optional<String> news = changed
                ? Optional.of("registered with the controller (epoch " + epoch + ", heartbeat every " + text(interval) + ")")
                : Optional.empty();
        return new Step(Action.HEARTBEAT, interval, news);
    }

    public Step registerFailed(String cause) {
        failures++;
        Optional<String> news = state != State.UNREACHABLE
                ? Optional.of("controller unreachable (" + cause + "); retrying, backing off from " + text(backoff.initial()) + " to " + text(backoff.max()))
                : Optional.empty();
        state = State.UNREACHABLE;
        return new Step(Action.REGISTER, retryDelay(), news);
    }

    public Step heartbeatAnswered(String controllerEpoch) {
        if (controllerEpoch.equals(epoch)) {
            return new Step(Action.HEARTBEAT, interval, Optional.empty());
        }
        String news = controllerEpoch.isEmpty()
                ? "the controller asks this node to register again (it set the node DOWN for not responding, or does not know it); registering"
                : "controller epoch changed from " + epoch + " to " + controllerEpoch + " (it restarted); registering again";
        epoch = null;
        return new Step(Action.REGISTER, Duration.ZERO, Optional.of(news));
    }

    public Step heartbeatFailed(String cause) {
        state = State.UNREACHABLE;
        epoch = null;
        return new Step(Action.REGISTER, Duration.ZERO, Optional.of("heartbeat failed (" + cause + "); registering again"));
    }

    /**
     * The backoff, but never longer than the heartbeat interval once the controller named one: a controller that was
     * stopped or cut off judges silence from when it runs again, one SlurmdTimeout (three intervals or more), so an
     * agent that retried less often could be set DOWN while both are healthy.
     */
    private Duration retryDelay() {
        Duration d = backoff.delay(failures);
        return d.compareTo(interval) > 0 ? interval : d;
    }

    private static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** The epoch of the controller this node is registered with, or empty while it is not. */
    public Optional<String> epoch() {
        return Optional.ofNullable(epoch);
    }
}
