package dev.gantry.common.credential;

/** A launch credential failed a check; the message says which. */
public final class CredentialException extends RuntimeException {
    public CredentialException(String message) {
        super(message);
    }
}
