package dev.gantry.common.authn;

/** A caller whose credential is missing or not accepted; the message says which and why (UNAUTHENTICATED). */
public final class AuthenticationException extends Exception {
    public AuthenticationException(String message) {
        super(message);
    }
}
