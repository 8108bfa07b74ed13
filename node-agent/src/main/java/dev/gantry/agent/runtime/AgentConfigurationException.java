package dev.gantry.agent.runtime;

/** The agent's configuration is unusable; the message says which setting and why. Start-up stops with it. */
public final class AgentConfigurationException extends RuntimeException {
    public AgentConfigurationException(String message) {
        super(message);
    }

    public AgentConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
