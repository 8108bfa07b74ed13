package dev.gantry.agent.process;

import dev.gantry.agent.job.LaunchGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launch guard's memory on disk (in the spool's state directory, beside the job table), so that a launch credential
 * stays single-use across agent restarts: one line appended per change ({@code L|R jobId untilSeconds atNanos}, or
 * {@code F jobId} when forgotten), read back at start, and rewritten with only the live records when it has grown to
 * more than twice them. An append is one small write (no fsync: the spool is memory-backed on the local cluster, and
 * what it guards, job processes, does not survive the host either). Thread-safe.
 */
public final class LaunchGuardJournal implements LaunchGuard.Journal {

    private static final Logger LOG = LoggerFactory.getLogger(LaunchGuardJournal.class);
    static final String FILE = "launch-guard";

    private final Path file;
    private final Map<Long, LaunchGuard.Record> live = new LinkedHashMap<>();
    private FileChannel out;
    private int lines;

    public LaunchGuardJournal(Path stateDir) {
        this.file = stateDir.resolve(FILE);
    }

    /** What the previous agent remembered (expired records included: the guard drops them); opens for appending. */
    public synchronized List<LaunchGuard.Record> load() {
        if (Files.exists(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                    apply(line);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("launch guard journal {} unreadable ({}): starting from what was read", file, e.toString());
            }
        }
        compact();
        return new ArrayList<>(live.values());
    }

    @Override
    public synchronized void remembered(LaunchGuard.Record r) {
        live.put(r.jobId(), r);
        append(line(r));
    }

    @Override
    public synchronized void forgot(long jobId) {
        if (live.remove(jobId) != null) {
            append("F " + jobId + "\n");
        }
    }

    /** One record's line; its end is rounded up to the second, so it is never remembered for less. */
    private static String line(LaunchGuard.Record r) {
        long until = r.until().getEpochSecond() + (r.until().getNano() > 0 ? 1 : 0);
        return (r.mark() == LaunchGuard.Mark.LAUNCHED ? "L " : "R ") + r.jobId() + " " + until + " "
                + (r.at().getEpochSecond() * 1_000_000_000L + r.at().getNano()) + "\n";
    }

    private void apply(String line) {
        String[] f = line.trim().split(" ");
        if (f.length == 2 && f[0].equals("F")) {
            live.remove(Long.parseLong(f[1]));
        } else if (f.length == 4 && (f[0].equals("L") || f[0].equals("R"))) {
            long at = Long.parseLong(f[3]);
            live.put(Long.parseLong(f[1]), new LaunchGuard.Record(Long.parseLong(f[1]),
                    f[0].equals("L") ? LaunchGuard.Mark.LAUNCHED : LaunchGuard.Mark.REVOKED,
                    Instant.ofEpochSecond(Long.parseLong(f[2])), Instant.ofEpochSecond(at / 1_000_000_000L, at % 1_000_000_000L)));
        }
    }

    private void append(String line) {
        try {
            if (out == null) {
                out = open();
            }
            ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            if (++lines > 2 * live.size() + 64) {
                compact();
            }
        } catch (IOException e) {
            LOG.warn("launch guard journal {}: {}", file, e.toString());
        }
    }

    /** Rewrites the file with the live records only, then appends to it. */
    private void compact() {
        try {
            if (out != null) {
                out.close();
                out = null;
            }
            StringBuilder text = new StringBuilder();
            for (LaunchGuard.Record r : live.values()) {
                text.append(line(r));
            }
            Path tmp = file.resolveSibling(FILE + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            lines = live.size();
            out = open();
        } catch (IOException e) {
            throw new UncheckedIOException("launch guard journal " + file + ": " + e.getMessage(), e);
        }
    }

    private FileChannel open() throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
}
