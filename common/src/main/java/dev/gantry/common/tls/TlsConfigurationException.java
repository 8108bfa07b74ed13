package dev.gantry.common.tls;

/** A service's TLS settings are missing or wrong; the message names the variable, the file and what is wrong. */
public final class TlsConfigurationException extends RuntimeException {
    public TlsConfigurationException(String message) {
        super(message);
    }

    public TlsConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
