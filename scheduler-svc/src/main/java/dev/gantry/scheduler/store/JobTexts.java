package dev.gantry.scheduler.store;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.gantry.api.v1.JobSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scripts and environments as the job_texts table holds them: once per content, named by the SHA-256 of their bytes
 * (a script's UTF-8, an environment as a JobSpec holding only it, so its order is kept). Digests of recently written
 * texts are remembered by identity: the tasks of an array, and jobs whose request shares an interned script or
 * environment, are hashed once. Thread-safe.
 */
final class JobTexts {

    /** The digests of the texts written last, by identity (an LRU). */
    private final Map<Identity, byte[]> digests = new LinkedHashMap<>(2048, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Identity, byte[]> eldest) {
            return size() > 1024;
        }
    };

    private record Identity(Object of) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.of == of;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(of);
        }
    }

    Batch batch() {
        return new Batch();
    }

    Reader reader() {
        return new Reader();
    }

    private synchronized byte[] remembered(Object text) {
        return digests.get(new Identity(text));
    }

    private synchronized void remember(Object text, byte[] digest) {
        digests.put(new Identity(text), digest);
    }

    /** The texts of one write: each named once, however many rows name it. */
    final class Batch {
        private final Map<ByteBuffer, byte[]> bodies = new LinkedHashMap<>();

        /** The script's digest, null for none; the script is written with the batch. */
        byte[] script(String script) {
            return script.isEmpty() ? null : add(script, () -> script.getBytes(StandardCharsets.UTF_8));
        }

        /** The environment's digest, null for none; the environment is written with the batch. */
        byte[] environment(Map<String, String> environment) {
            return environment.isEmpty() ? null
                    : add(environment, () -> JobSpec.newBuilder().putAllEnvironment(environment).build().toByteArray());
        }

        private byte[] add(Object text, java.util.function.Supplier<byte[]> encode) {
            byte[] digest = remembered(text);
            byte[] body = null;
            if (digest == null) {
                body = encode.get();
                digest = sha256(body);
                remember(text, digest);
            }
            ByteBuffer key = ByteBuffer.wrap(digest);
            if (!bodies.containsKey(key)) {
                bodies.put(key, body != null ? body : encode.get());
            }
            return digest;
        }

        byte[][] digests() {
            List<byte[]> out = new ArrayList<>();
            bodies.keySet().forEach(k -> out.add(k.array()));
            return out.toArray(byte[][]::new);
        }

        byte[][] bodies() {
            return bodies.values().toArray(byte[][]::new);
        }
    }

    /** Texts read back: equal ones become one object, as the jobs holding them share it. */
    static final class Reader {
        private final Map<ByteBuffer, String> scripts = new HashMap<>();
        private final Map<ByteBuffer, Map<String, String>> environments = new HashMap<>();

        String script(byte[] body) {
            return scripts.computeIfAbsent(ByteBuffer.wrap(body), b -> new String(body, StandardCharsets.UTF_8));
        }

        Map<String, String> environment(byte[] body) throws SQLException {
            Map<String, String> known = environments.get(ByteBuffer.wrap(body));
            if (known != null) {
                return known;
            }
            try {
                Map<String, String> env = JobSpec.parseFrom(body).getEnvironmentMap();
                environments.put(ByteBuffer.wrap(body), env);
                return env;
            } catch (InvalidProtocolBufferException e) {
                throw new SQLException("a stored environment is not a valid gantry.v1.JobSpec: " + e.getMessage(), e);
            }
        }
    }

    static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
