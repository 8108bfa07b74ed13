package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.lease.Lease;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who this controller is among those sharing its database (docs/ARCHITECTURE.md, "Standby controller"), and how it
 * waits as a standby: GANTRY_CONTROLLER_NAME (default: the host name; unique per controller), GANTRY_CONTROLLER_ADVERTISE
 * (the client address written into the lease for the standby's redirects; default the public gRPC host:port), and
 * GANTRY_DATABASE_SHARED=true (attach to the local cluster's shared embedded PostgreSQL rather than start one).
 */
@Singleton
public final class ControllerSettings {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerSettings.class);

    private final String name;
    private final String advertise;
    private final boolean sharedEmbedded;
    private final String host;
    private final int port;
    private final String tlsCert;
    private final String tlsKey;

    public ControllerSettings(@Value("${gantry.controller.name:}") String name,
            @Value("${gantry.controller.advertise:}") String advertise,
            @Value("${gantry.database.shared:false}") boolean sharedEmbedded,
            @Value("${grpc.server.host:127.0.0.1}") String host,
            @Value("${grpc.server.port:6817}") int port,
            @Value("${gantry.public-tls.cert:}") String tlsCert,
            @Value("${gantry.public-tls.key:}") String tlsKey) {
        this.name = name.isBlank() ? hostName() : name.strip();
        this.advertise = advertise.isBlank() ? host + ":" + port : advertise.strip();
        this.sharedEmbedded = sharedEmbedded;
        this.host = host;
        this.port = port;
        this.tlsCert = tlsCert.strip();
        this.tlsKey = tlsKey.strip();
    }

    public String name() {
        return name;
    }

    public String advertise() {
        return advertise;
    }

    public boolean sharedEmbedded() {
        return sharedEmbedded;
    }

    /**
     * Takes the lease; while another controller holds it, serves the public port as a standby ({@link StandbyServer}),
     * closed again before returning so the controller's own server can bind it. Returns the fencing number.
     *
     * @param maxMessageBytes the public port's largest inbound message (SubmissionPolicy.maxMessageBytes)
     */
    long awaitLease(ControllerLease lease, int maxMessageBytes) throws InterruptedException {
        StandbyServer[] standby = {null};
        long fencing = lease.await((Lease active) -> {
            if (standby[0] == null) {
                try {
                    standby[0] = StandbyServer.start(host, port, tlsCert, tlsKey, () -> lease.lastSeen().address(),
                            maxMessageBytes);
                    LOG.info("standby controller {}: {}:{} answers NOT_SERVING and redirects to the active one", name, host, port);
                } catch (IOException e) {
                    LOG.warn("standby controller {}: cannot serve {}:{} meanwhile: {}", name, host, port, e.getMessage());
                }
            }
        });
        if (standby[0] != null) {
            standby[0].close();
        }
        return fencing;
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
