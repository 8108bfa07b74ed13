package dev.gantry.cli.api;

import com.google.protobuf.Timestamp;
import java.time.Instant;

/** Instants to and from protobuf timestamps. */
final class ProtoTime {

    private ProtoTime() {}

    /** The instant, or null for an unset (all-zero) timestamp: the API's "not yet" / "unknown". */
    static Instant instant(Timestamp ts) {
        if (ts.getSeconds() == 0 && ts.getNanos() == 0) {
            return null;
        }
        return Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
    }

    /** The timestamp of {@code t}, to the nanosecond. */
    static Timestamp timestamp(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
