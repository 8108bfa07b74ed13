package dev.gantry.cli.getopt;

/** A command-line mistake; the message is getopt's, without the "CMD: " prefix. */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
