package dev.gantry.scheduler.grpc;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * ListJobs' page tokens: opaque to clients, "j1.<last id looked at>.<query fingerprint in hex>" in base64url. The
 * fingerprint ties a token to the filters and view it was issued for; a controller that takes over (same code) reads
 * another's tokens, since the fingerprint depends on the query alone.
 */
final class PageTokens {
    private PageTokens() {}

    private static final String PREFIX = "j1.";

    static String token(long lastId, long fingerprint) {
        String plain = PREFIX + Long.toUnsignedString(lastId) + "." + Long.toHexString(fingerprint);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The id the page after {@code token} starts after; 0 for the empty token (the first page).
     *
     * @throws IllegalArgumentException naming page_token, for a token this server did not issue or one issued for
     *     another query
     */
    static long after(String token, long fingerprint) {
        if (token.isEmpty()) {
            return 0;
        }
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw notIssued();
        }
        String[] parts = plain.split("\\.", -1);
        if (parts.length != 3 || !(parts[0] + ".").equals(PREFIX)) {
            throw notIssued();
        }
        long last;
        long issuedFor;
        try {
            last = Long.parseUnsignedLong(parts[1]);
            issuedFor = Long.parseUnsignedLong(parts[2], 16);
        } catch (NumberFormatException e) {
            throw notIssued();
        }
        if (issuedFor != fingerprint) {
            throw new IllegalArgumentException("page_token: was issued for other filters or another view; send the"
                    + " next_page_token with the request that returned it, changing only page_size");
        }
        return last;
    }

    private static IllegalArgumentException notIssued() {
        return new IllegalArgumentException("page_token: not a token this server issued (send the next_page_token of"
                + " the previous answer, or none for the first page)");
    }
}
