package dev.gantry.common.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PeerTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "urn:gantry:service:scheduler-svc, service scheduler-svc",
            "urn:gantry:node:n1,               node n1",
            "urn:gantry:node:rack1-n001.local, node rack1-n001.local",
            "urn:gantry:user:alice,            none",
            "urn:gantry:node:,                 none",
            "urn:gantry:node:a/b,              none",
            "urn:gantry:node,                  none",
            "spiffe://gantry/node/n1,          none",
    })
    void fromUri(String uri, String expected) {
        assertEquals(Optional.ofNullable(expected), Peer.fromUri(uri).map(Peer::toString));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"service:gang-svc, urn:gantry:service:gang-svc", "node:n3, urn:gantry:node:n3"})
    void parse_andUri_roundTrip(String spec, String uri) {
        Peer p = Peer.parse(spec);
        assertEquals(uri, p.uri());
        assertEquals(Optional.of(p), Peer.fromUri(uri));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"gang-svc", "host:n1", "node:", "node:a b"})
    void parse_refusesWhatNamesNoPeer(String spec) {
        assertThrows(IllegalArgumentException.class, () -> Peer.parse(spec));
    }
}
