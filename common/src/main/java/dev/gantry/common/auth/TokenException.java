package dev.gantry.common.auth;

/** A token that is not accepted: malformed, signed by no key the server trusts, expired, or not yet valid. */
public final class TokenException extends Exception {
    public TokenException(String message) {
        super(message);
    }
}
