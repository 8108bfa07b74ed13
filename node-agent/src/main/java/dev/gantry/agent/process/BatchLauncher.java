package dev.gantry.agent.process;

import dev.gantry.agent.job.JobEnvironment;
import dev.gantry.agent.job.JobUser;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.job.OutputFiles;
import dev.gantry.agent.job.OutputPattern;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Starts batch scripts as slurmd does: checks the working directory, opens (truncating) the output files,
 * writes the script to the spool directory (mode 0700) and execs it through {@code setsid}, so it leads a new
 * session and process group whose id is its pid. Its environment is {@link JobEnvironment}'s, its working
 * directory the job's work_dir, its stdin /dev/null.
 *
 * <p>Tasks run as the agent's own user. Running them as the credential's uid/gid later means prefixing the
 * command with a privilege switch (for instance {@code setpriv --reuid --regid --init-groups}) and opening the
 * output files as that user; {@link JobUser} already reaches this class for that.
 *
 * <p>Thread-safe. Writing a script and starting it are serialized: a process forked by another thread while
 * the script is open for writing would make its exec fail with ETXTBSY.
 */
public final class BatchLauncher {

    /** A started batch script, or why none was started. */
    public sealed interface Attempt {
        record Started(Process process) implements Attempt {}

        record NotStarted(LaunchOutcome outcome) implements Attempt {}
    }

    private static final Path SETSID_DEFAULT = Path.of("/usr/bin/setsid");

    private final Path spoolRoot;
    private final String nodeName;
    private final Path setsid;
    private final Object startLock = new Object();

    public BatchLauncher(Path spoolRoot, String nodeName) {
        this(spoolRoot, nodeName, findSetsid());
    }

    BatchLauncher(Path spoolRoot, String nodeName, Path setsid) {
        this.spoolRoot = spoolRoot;
        this.nodeName = nodeName;
        this.setsid = setsid;
    }

    /** The directory of one job's spooled files; deleted by {@link #cleanUp} once the job has ended. */
    public Path spoolOf(long jobId) {
        return spoolRoot.resolve("job" + jobId);
    }

    public Attempt start(LaunchOrder order, JobUser user, List<String> nodes) {
        Path workDir = Path.of(order.workDir());
        if (!Files.isDirectory(workDir)) {
            String why = Files.exists(workDir) ? "Not a directory" : "No such file or directory";
            return unrunnable("work_dir " + workDir + ": " + why);
        }
        if (!Files.isExecutable(workDir)) {
            return unrunnable("work_dir " + workDir + ": Permission denied");
        }
        OutputPattern.Values values = new OutputPattern.Values(order.jobId(), order.jobName(), user.name(), nodeName);
        OutputFiles files = OutputFiles.resolve(order.stdoutPattern(), order.stderrPattern(), workDir, values);
        try {
            truncate(files.stdout());
        } catch (IOException e) {
            return unrunnable("stdout " + files.stdout() + ": " + reason(e));
        }
        if (!files.merged()) {
            try {
                truncate(files.stderr());
            } catch (IOException e) {
                return unrunnable("stderr " + files.stderr() + ": " + reason(e));
            }
        }
        ProcessBuilder builder = new ProcessBuilder(command(order, spoolOf(order.jobId()).resolve("slurm_script")))
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(files.stdout().toFile()));
        if (files.merged()) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(ProcessBuilder.Redirect.appendTo(files.stderr().toFile()));
        }
        builder.environment().clear();
        builder.environment().putAll(JobEnvironment.build(order, user, nodes, nodeName));
        synchronized (startLock) {
            try {
                writeScript(order);
            } catch (IOException e) {
                return new Attempt.NotStarted(new LaunchOutcome.Failed("cannot write the job script to " + spoolOf(order.jobId()) + ": " + reason(e)));
            }
            try {
                return new Attempt.Started(builder.start());
            } catch (IOException e) {
                cleanUp(order.jobId());
                return new Attempt.NotStarted(new LaunchOutcome.Failed("cannot start the job script: " + e.getMessage()));
            }
        }
    }

    /** Deletes a job's spool directory; best effort. */
    public void cleanUp(long jobId) {
        Path dir = spoolOf(jobId);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover spool file is harmless; the next launch of the same id (never) or an operator removes it
        }
    }

    private List<String> command(LaunchOrder order, Path script) {
        List<String> cmd = new ArrayList<>(order.argv().size() + 2);
        cmd.add(setsid.toString());
        cmd.add(script.toString());
        cmd.addAll(order.argv());
        return cmd;
    }

    private void writeScript(LaunchOrder order) throws IOException {
        Path dir = spoolOf(order.jobId());
        cleanUp(order.jobId());
        Files.createDirectories(spoolRoot);
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path script = dir.resolve("slurm_script");
        Files.createFile(script, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(script, order.script(), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private static void truncate(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            out.flush();
        }
    }

    private static Attempt unrunnable(String message) {
        return new Attempt.NotStarted(new LaunchOutcome.Unrunnable(message));
    }

    /** The strerror-like part of an I/O failure: "No such file or directory", "Permission denied", … */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getMessage();
    }

    private static Path findSetsid() {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(dir, "setsid");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return SETSID_DEFAULT;
    }
}
