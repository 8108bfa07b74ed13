package dev.gantry.agent;

import dev.gantry.agent.runtime.AgentConfigurationException;
import dev.gantry.common.service.ServiceStartup;
import dev.gantry.common.tls.TlsConfigurationException;

/**
 * node-agent (Slurm's slurmd): runs the jobs the controller launches on this node and reports their exits.
 * A configuration error stops start-up with one clear line on stderr and exit status 2.
 */
public final class AgentApplication {
    private AgentApplication() {}

    public static void main(String[] args) {
        ServiceStartup.start("gantry-node-agent", AgentApplication.class, args, AgentConfigurationException.class,
                TlsConfigurationException.class);
    }
}
