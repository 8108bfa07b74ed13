package dev.gantry.cli.cluster;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigException;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.Keys;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.Peer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry certs}: the cluster CA and service certificates for a cluster that {@code gantry up} does not start
 * (Kubernetes; docs/kubernetes.md, "Service identity"). Creates the CA in the directory unless it is there, then issues
 * a new certificate and key for each peer named: the three services and every NodeName of {@code --config}, and
 * {@code service:NAME} or {@code node:NAME} arguments. Writes the layout of {@link CertificateDirectory}.
 */
@Command(name = "certs", mixinStandardHelpOptions = true,
        description = {"Create the cluster CA (if missing) and issue service and node-agent certificates from it.",
            "Files: DIR/ca.crt, DIR/ca.key (keep it secret), DIR/services/NAME.crt|.key, DIR/nodes/NODE.crt|.key."})
final class CertsCommand implements Callable<Integer> {

    @Option(names = "--dir", required = true, description = "Where the CA is, or is created, and the certificates go.")
    Path dir;

    @Option(names = {"-c", "--config"}, description = "Issue scheduler-svc, select-svc, gang-svc and every NodeName of this config.")
    Path config;

    @Option(names = "--cluster", description = "The CA's name (default: the config's ClusterName, else 'gantry').")
    String cluster;

    @Option(names = "--days", defaultValue = "365", description = "Validity of the certificates issued (default: ${DEFAULT-VALUE}).")
    long days;

    @Option(names = "--host", description = "A DNS name or IP address added to every certificate issued (repeatable); "
            + "Gantry checks the peer's name, not the host, so this is for other tools.")
    List<String> hosts = new ArrayList<>();

    @Parameters(paramLabel = "PEER", arity = "0..*", description = "service:NAME or node:NAME")
    List<String> peers = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;

    CertsCommand() {
        this(System.out, System.err);
    }

    CertsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Set<Peer> issue = new LinkedHashSet<>();
        String name = cluster;
        if (config != null) {
            ClusterConfig parsed;
            try {
                parsed = ConfigParser.parse(config);
            } catch (ConfigException e) {
                e.problems().forEach(p -> err.println("gantry: " + p));
                return 1;
            }
            issue.addAll(Peer.SERVICES);
            parsed.nodes().forEach(n -> issue.add(new Peer.Node(n.name())));
            if (name == null) {
                name = parsed.get(Keys.CLUSTER_NAME);
            }
        }
        try {
            peers.forEach(p -> issue.add(Peer.parse(p)));
        } catch (IllegalArgumentException e) {
            err.println("gantry: certs: " + e.getMessage());
            return 2;
        }
        if (days <= 0) {
            err.println("gantry: certs: --days=" + days + ": expected a positive number");
            return 2;
        }
        Instant now = Instant.now();
        try {
            CertificateDirectory certs = CertificateDirectory.open(dir, name == null ? "gantry" : name, now);
            out.println("CA: " + certs.caCertificate() + " (" + certs.ca().certificate().getSubjectX500Principal().getName() + ")");
            for (Peer p : issue) {
                List<String> names = new ArrayList<>();
                names.add(p.name());
                names.addAll(hosts);
                certs.issue(p, names, now, Duration.ofDays(days));
                out.println(p + ": " + certs.certificate(p) + ", " + certs.key(p));
            }
            if (issue.isEmpty()) {
                out.println("(no certificate issued: name peers, or --config)");
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("gantry: certs: " + dir + ": " + e.getMessage());
            return 1;
        }
    }
}
