package dev.gantry.cli.controller;

/**
 * Where scheduler-svc's gRPC server listens.
 *
 * @param host a host name or IP address (IPv6 without brackets)
 * @param port 1..65535
 */
public record ControllerAddress(String host, int port) {

    public ControllerAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("empty host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /**
     * Parses "host:port" or "[ipv6]:port".
     *
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static ControllerAddress parse(String text) {
        String s = text.trim();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got \"" + s + "\"");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("expected host:port (IPv6 in brackets), got \"" + s + "\"");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port, got \"" + s + "\"");
        }
        return new ControllerAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
