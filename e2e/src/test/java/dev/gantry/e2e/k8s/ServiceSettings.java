package dev.gantry.e2e.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a service module reads from its environment, from its own sources: the {@code ${GANTRY_X:default}}
 * placeholders of its application.yml and the "GANTRY_X" names its main Java sources read directly.
 *
 * @param grpcPort the application.yml placeholder behind {@code grpc.server.port}
 * @param httpPort the placeholder behind {@code micronaut.server.port} (where /prometheus is served)
 * @param bindHost the placeholder behind {@code grpc.server.host}
 * @param internalPort the placeholder behind {@code gantry.internal.port} (the internal API, mutual TLS)
 * @param prometheusServed the /prometheus endpoint is enabled and not marked sensitive
 */
public record ServiceSettings(String module, Placeholder grpcPort, Placeholder httpPort, Placeholder bindHost,
        Placeholder internalPort, boolean prometheusServed, Set<String> environment) {

    /** {@code ${NAME:default}}. */
    public record Placeholder(String name, String defaultValue) {
        static Placeholder of(JsonNode value, String what) {
            Matcher m = PLACEHOLDER.matcher(value.asText());
            if (!m.matches()) {
                throw new AssertionError(what + " is '" + value.asText() + "', not a ${GANTRY_...:default} placeholder");
            }
            return new Placeholder(m.group(1), m.group(2) == null ? "" : m.group(2).replace("`", ""));
        }
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(GANTRY_[A-Z0-9_]+)(?::([^}]*))?}");
    private static final Pattern PLACEHOLDER_ANYWHERE = Pattern.compile("\\$\\{(GANTRY_[A-Z0-9_]+)");
    private static final Pattern LITERAL = Pattern.compile("\"(GANTRY_[A-Z0-9_]+)\"");

    public static ServiceSettings of(String module) {
        Path root = Manifests.home().resolve(module).resolve("src/main");
        try {
            String yml = Files.readString(root.resolve("resources/application.yml"));
            JsonNode tree = new YAMLMapper().readTree(yml);
            Set<String> env = new TreeSet<>();
            PLACEHOLDER_ANYWHERE.matcher(yml).results().forEach(r -> env.add(r.group(1)));
            try (Stream<Path> files = Files.walk(root.resolve("java"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    LITERAL.matcher(Files.readString(f)).results().forEach(r -> env.add(r.group(1)));
                }
            }
            JsonNode endpoint = tree.path("endpoints").path("prometheus");
            boolean prometheus = endpoint.path("enabled").asBoolean(false) && !endpoint.path("sensitive").asBoolean(true)
                    && tree.path("micronaut").path("metrics").path("export").path("prometheus").path("enabled").asBoolean(false);
            return new ServiceSettings(module,
                    Placeholder.of(tree.path("grpc").path("server").path("port"), module + " grpc.server.port"),
                    Placeholder.of(tree.path("micronaut").path("server").path("port"), module + " micronaut.server.port"),
                    Placeholder.of(tree.path("grpc").path("server").path("host"), module + " grpc.server.host"),
                    Placeholder.of(tree.path("gantry").path("internal").path("port"), module + " gantry.internal.port"),
                    prometheus, env);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
