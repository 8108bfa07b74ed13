package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.ExitReport;
import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.job.JobUser;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's job table and its unacknowledged exits on disk, in its state directory (mode 0700): one small
 * properties file per running job ({@code job<id>.properties}) and per exit not yet acknowledged
 * ({@code exit<id>.properties}), each replaced atomically (write, then rename). A restarted agent reads them
 * back to re-attach to its jobs and re-send the exits. Survives an agent crash; a host crash kills the jobs
 * anyway. Thread-safe (each file is written whole and renamed into place).
 */
public final class JobTableStore implements ExitJournal {

    private static final Logger LOG = LoggerFactory.getLogger(JobTableStore.class);

    /**
     * One running job as the table remembers it.
     *
     * @param run the job's restart count when launched (-1: recorded by an agent that did not keep it)
     * @param pidStartTicks the leader's start time in /proc (pid plus start time name the process for good)
     * @param group the containment's {@link Containment.JobGroup#descriptor()}
     * @param terminateReason set once the kill sequence began, else empty
     */
    public record Entry(long jobId, int run, long pid, long pidStartTicks, Instant startedAt, String partition, JobUser user,
            String group, boolean suspended, String terminateReason) {}

    private final Path dir;

    public JobTableStore(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    public void save(Entry e) {
        Properties p = new Properties();
        p.setProperty("job_id", Long.toString(e.jobId()));
        p.setProperty("restart_count", Integer.toString(e.run()));
        p.setProperty("pid", Long.toString(e.pid()));
        p.setProperty("pid_start_ticks", Long.toString(e.pidStartTicks()));
        p.setProperty("started_at", e.startedAt().toString());
        p.setProperty("partition", e.partition());
        p.setProperty("user", e.user().name());
        p.setProperty("uid", Long.toString(e.user().uid()));
        p.setProperty("gid", Long.toString(e.user().gid()));
        p.setProperty("group", e.group());
        p.setProperty("suspended", Boolean.toString(e.suspended()));
        p.setProperty("terminate_reason", e.terminateReason());
        write("job" + e.jobId(), p);
    }

    public void remove(long jobId) {
        delete("job" + jobId);
    }

    /** Every job the table holds; unreadable files are skipped with a warning. */
    public List<Entry> load() {
        List<Entry> out = new ArrayList<>();
        for (Properties p : readAll("job")) {
            try {
                out.add(new Entry(Long.parseLong(p.getProperty("job_id")),
                        Integer.parseInt(p.getProperty("restart_count", "-1")), Long.parseLong(p.getProperty("pid")),
                        Long.parseLong(p.getProperty("pid_start_ticks")), Instant.parse(p.getProperty("started_at")),
                        p.getProperty("partition", ""),
                        new JobUser(p.getProperty("user", ""), Long.parseLong(p.getProperty("uid", "0")), Long.parseLong(p.getProperty("gid", "0"))),
                        p.getProperty("group", ""),
                        Boolean.parseBoolean(p.getProperty("suspended")), p.getProperty("terminate_reason", "")));
            } catch (RuntimeException ex) {
                LOG.warn("skipping a job table entry that does not parse: {} ({})", p, ex.toString());
            }
        }
        out.sort(Comparator.comparingLong(Entry::jobId));
        return out;
    }

    @Override
    public void recorded(ExitReport e) {
        Properties p = new Properties();
        p.setProperty("job_id", Long.toString(e.jobId()));
        p.setProperty("exit_code", Integer.toString(e.status().code()));
        p.setProperty("exit_signal", Integer.toString(e.status().signal()));
        p.setProperty("reason", e.reason());
        p.setProperty("cpu_seconds", Double.toString(e.cpuSeconds()));
        p.setProperty("max_rss_kb", Long.toString(e.maxRssKb()));
        Optional.ofNullable(e.startedAt()).ifPresent(t -> p.setProperty("started_at", t.toString()));
        Optional.ofNullable(e.endedAt()).ifPresent(t -> p.setProperty("ended_at", t.toString()));
        p.setProperty("out_of_memory", Boolean.toString(e.outOfMemory()));
        p.setProperty("run", Integer.toString(e.run()));
        write(exitName(e), p);
    }

    /** One record per run of a job (two runs' exits may both be owed); a run not known keeps the older name. */
    private static String exitName(ExitReport e) {
        return "exit" + e.jobId() + (e.run() == JobRun.UNKNOWN ? "" : "-" + e.run());
    }

    @Override
    public void acknowledged(ExitReport exit) {
        delete(exitName(exit));
    }

    @Override
    public List<ExitReport> unacknowledged() {
        List<ExitReport> out = new ArrayList<>();
        for (Properties p : readAll("exit")) {
            try {
                out.add(new ExitReport(Long.parseLong(p.getProperty("job_id")),
                        new ExitStatus(Integer.parseInt(p.getProperty("exit_code")), Integer.parseInt(p.getProperty("exit_signal"))),
                        p.getProperty("reason", ""), Double.parseDouble(p.getProperty("cpu_seconds", "0")),
                        Long.parseLong(p.getProperty("max_rss_kb", "0")),
                        Optional.ofNullable(p.getProperty("started_at")).map(Instant::parse).orElse(null),
                        Optional.ofNullable(p.getProperty("ended_at")).map(Instant::parse).orElse(null),
                        Boolean.parseBoolean(p.getProperty("out_of_memory")),
                        Integer.parseInt(p.getProperty("run", Integer.toString(JobRun.UNKNOWN)))));
            } catch (RuntimeException ex) {
                LOG.warn("skipping an exit record that does not parse: {} ({})", p, ex.toString());
            }
        }
        out.sort(Comparator.comparing((ExitReport e) -> e.endedAt() == null ? Instant.EPOCH : e.endedAt()).thenComparingLong(ExitReport::jobId));
        return out;
    }

    private void write(String name, Properties p) {
        Path tmp = dir.resolve(name + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, null);
            }
            Files.move(tmp, dir.resolve(name + ".properties"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.warn("cannot persist {} in {}: {}; an agent restart would forget it", name, dir, e.getMessage());
        }
    }

    private void delete(String name) {
        try {
            Files.deleteIfExists(dir.resolve(name + ".properties"));
        } catch (IOException e) {
            LOG.warn("cannot delete {} in {}: {}", name, dir, e.getMessage());
        }
    }

    private List<Properties> readAll(String prefix) {
        List<Properties> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "[0-9]*.properties")) {
            for (Path f : files) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    p.load(r);
                    out.add(p);
                } catch (IOException e) {
                    LOG.warn("cannot read {}: {}", f, e.getMessage());
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", dir, e.getMessage());
        }
        return out;
    }
}
