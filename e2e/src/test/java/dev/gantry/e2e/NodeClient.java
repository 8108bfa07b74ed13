package dev.gantry.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * A user's own gRPC program in another language: Node with @grpc/grpc-js and @grpc/proto-loader, installed from the npm
 * registry into the build directory on first use, calling the client API straight from the .proto files
 * (e2e/src/test/resources/clients/node/gantry-call.js). Skipped where node or npm is missing.
 */
final class NodeClient {

    private final Path dir;
    private final Path protoDir;

    private NodeClient(Path dir, Path protoDir) {
        this.dir = dir;
        this.protoDir = protoDir;
    }

    /**
     * The client, installed under the e2e module's target directory (readable by every user). Synchronized: two test
     * classes running at once must not run npm into one directory together.
     */
    static synchronized NodeClient install() throws Exception {
        Path home = TestCluster.home();
        Path dir = home.resolve("e2e/target/node-client");
        Files.createDirectories(dir);
        Files.copy(home.resolve("e2e/src/test/resources/clients/node/gantry-call.js"), dir.resolve("gantry-call.js"),
                StandardCopyOption.REPLACE_EXISTING);
        if (!Files.isDirectory(dir.resolve("node_modules/@grpc/grpc-js"))) {
            Shell.Result r = LocalUsers.run(List.of("sh", "-c", "cd " + dir + " && npm install --no-audit --no-fund --silent "
                    + "@grpc/grpc-js@1.14 @grpc/proto-loader@0.8"));
            assumeTrue(r.exit() == 0, "cannot install the Node gRPC client from npm: " + r);
        }
        LocalUsers.run(List.of("chmod", "-R", "a+rX", dir.toString()));
        return new NodeClient(dir, home.resolve("proto/src/main/proto"));
    }

    /** Calls {@code method} of gantry.v1.Controller at {@code address} as {@code user}, with {@code env} (its credential). */
    Shell.Result call(LocalUsers.User user, String address, Map<String, String> env, String method, String json) throws Exception {
        return LocalUsers.as(user, dir, env, "node", dir.resolve("gantry-call.js").toString(), protoDir.toString(), address,
                method, json);
    }
}
