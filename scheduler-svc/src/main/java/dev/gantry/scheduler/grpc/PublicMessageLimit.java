package dev.gantry.scheduler.grpc;

import dev.gantry.common.config.Keys;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import io.grpc.ServerBuilder;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The public port's largest inbound message, from the submission limits ({@link SubmissionPolicy#maxMessageBytes}
 * of SchedulerParameters=max_script_size) rather than grpc-java's 4 MiB default: a script at max_script_size with an
 * environment reaches the policy, whose refusal names the limit, instead of being cut off by the transport.
 */
@Singleton
final class PublicMessageLimit implements BeanCreatedEventListener<ServerBuilder<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(PublicMessageLimit.class);

    private final int maxScriptBytes;

    PublicMessageLimit(SchedulerRuntime runtime) {
        this.maxScriptBytes = runtime.state().config().get(Keys.SCHEDULER_PARAMETERS).maxScriptBytes();
    }

    @Override
    public ServerBuilder<?> onCreated(BeanCreatedEvent<ServerBuilder<?>> event) {
        int limit = SubmissionPolicy.maxMessageBytes(maxScriptBytes);
        LOG.info("the public port takes messages up to {} bytes (max_script_size {} bytes, the environment, the rest)",
                limit, maxScriptBytes);
        return event.getBean().maxInboundMessageSize(limit);
    }
}
