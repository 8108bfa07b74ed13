package dev.gantry.agent.runtime;

import dev.gantry.agent.grpc.HubSession;
import dev.gantry.agent.node.Hardware;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.common.tls.InternalServer;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Once the servers listen (the public one and the internal one it is given), starts registering with the controller. */
@Singleton
final class AgentLifecycle implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(AgentLifecycle.class);

    private final AgentSettings settings;
    private final Hardware hardware;
    private final JobSupervisor supervisor;
    private final HubSession hub;
    private boolean started;

    AgentLifecycle(AgentSettings settings, Hardware hardware, JobSupervisor supervisor, HubSession hub, InternalServer internal) {
        this.settings = settings;
        this.hardware = hardware;
        this.supervisor = supervisor;
        this.hub = hub;
    }

    @Override
    public synchronized void onApplicationEvent(ServerStartupEvent event) {
        if (started) {
            return;
        }
        started = true;
        LOG.info("node {} ({}) serving NodeAgent at {} (mutual TLS), StepAgent at {}, controller at {}, spool {}, containment {}",
                settings.nodeName(), hardware.describe(), settings.advertiseAddress(), settings.stepAddress(), settings.schedulerAddress(),
                settings.spoolDir(), supervisor.containmentMode());
        hub.start();
    }
}
