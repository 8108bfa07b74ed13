package dev.gantry.agent;

import dev.gantry.agent.runtime.AgentConfigurationException;
import io.micronaut.context.env.Environment;
import io.micronaut.runtime.Micronaut;

/**
 * node-agent (Slurm's slurmd): runs the jobs the controller launches on this node and reports their exits.
 * A configuration error stops start-up with one clear line on stderr and exit status 2.
 */
public final class AgentApplication {
    private AgentApplication() {}

    public static void main(String[] args) {
        new AgentStartup().args(args).mainClass(AgentApplication.class).banner(false).start();
    }

    /** Micronaut's start-up, except that a configuration error is reported plainly instead of as a stack trace. */
    private static final class AgentStartup extends Micronaut {
        @Override
        protected void handleStartupException(Environment environment, Throwable exception) {
            for (Throwable t = exception; t != null; t = t.getCause()) {
                if (t instanceof AgentConfigurationException config) {
                    System.err.println("gantry-node-agent: cannot start: " + config.getMessage());
                    System.exit(2);
                }
            }
            super.handleStartupException(environment, exception);
        }
    }
}
