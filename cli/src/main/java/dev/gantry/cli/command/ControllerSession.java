package dev.gantry.cli.command;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerChannels;
import dev.gantry.cli.controller.ControllerNotFoundException;
import io.grpc.ManagedChannel;
import java.util.concurrent.TimeUnit;

/** One command's connection to the controller; closing it drops the channel without waiting. */
final class ControllerSession implements AutoCloseable {

    private final ManagedChannel channel;

    private ControllerSession(ManagedChannel channel) {
        this.channel = channel;
    }

    /**
     * Opens a session through the context's connector.
     *
     * @throws ControllerNotFoundException when no controller address is configured
     */
    static ControllerSession open(CliContext context) throws ControllerNotFoundException {
        return new ControllerSession(context.controller().connect());
    }

    /** A stub whose calls time out after {@link ControllerChannels#CALL_TIMEOUT}. */
    ControllerGrpc.ControllerBlockingStub stub() {
        return ControllerGrpc.newBlockingStub(channel)
                .withDeadlineAfter(ControllerChannels.CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The job steps service (srun, squeue -s, scontrol show step), with the same deadline. */
    dev.gantry.api.v1.StepsGrpc.StepsBlockingStub steps() {
        return dev.gantry.api.v1.StepsGrpc.newBlockingStub(channel)
                .withDeadlineAfter(ControllerChannels.CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A stub without a deadline, for streams that last as long as a job (sbatch --wait). */
    ControllerGrpc.ControllerBlockingStub streamingStub() {
        return ControllerGrpc.newBlockingStub(channel);
    }

    @Override
    public void close() {
        channel.shutdownNow();
    }
}
