package dev.gantry.agent.runtime;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import java.util.List;

/**
 * Tells the agent at once when its connection to the controller is lost or made again, so that it registers with a
 * restarted or new controller in a moment rather than at its next heartbeat (up to 30 s later, with its node UNKNOWN to
 * the new controller meanwhile). Watches the connectivity state of each address's channel (with a standby, each
 * controller's); a channel that goes idle is asked to connect again, so a controller coming back is seen when its port
 * opens. Stops when the channel shuts down.
 */
final class ControllerConnectionWatch {

    private ControllerConnectionWatch() {
    }

    /** Watches {@code channels}: {@code onChange} runs (on a gRPC thread: it must only schedule) on each loss and each reconnection. */
    static void watch(List<ManagedChannel> channels, Runnable onChange) {
        for (ManagedChannel ch : channels) {
            follow(ch, ch.getState(true), onChange);
        }
    }

    private static void follow(ManagedChannel ch, ConnectivityState seen, Runnable onChange) {
        if (seen == ConnectivityState.SHUTDOWN) {
            return;
        }
        ch.notifyWhenStateChanged(seen, () -> {
            ConnectivityState now = ch.getState(false);
            if (now == ConnectivityState.IDLE) {
                now = ch.getState(true); // connect again: the controller's return is then seen as READY
            }
            boolean lost = seen == ConnectivityState.READY && now != ConnectivityState.READY;
            boolean back = seen != ConnectivityState.READY && now == ConnectivityState.READY;
            if (lost || back) {
                onChange.run();
            }
            follow(ch, now, onChange);
        });
    }
}
