package dev.gantry.agent.process;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a job's first process with glibc's posix_spawn(3) straight from the agent: one exec (the program itself)
 * where {@link ProcessBuilder} costs two more, its {@code jspawnhelper} and a {@code setsid} in the chain. The child
 * leads a new session ({@code POSIX_SPAWN_SETSID}), starts with default signal dispositions and an empty signal mask,
 * in {@code dir}, with exactly the environment given, stdin a pipe whose other end the returned process's
 * {@link Process#getOutputStream} writes, stdout and stderr /dev/null, and no other descriptor of the agent
 * ({@code posix_spawn_file_actions_addclosefrom_np}: nothing the JVM has open — sockets, the job table, another
 * job's script — leaks into a job).
 *
 * <p>Needs glibc 2.34 or later (closefrom, chdir and setsid spawn actions); {@link #load} is empty elsewhere (musl,
 * older glibc) and the agent uses {@link ProcessBuilder}. Thread-safe.
 */
final class NativeSpawn {

    /** The glibc calls; each returns 0 or an error number (not -1 and errno). */
    interface Spawn extends Library {
        int posix_spawn(IntByReference pid, String path, Pointer fileActions, Pointer attributes, String[] argv, String[] envp);

        int posix_spawn_file_actions_init(Pointer fileActions);

        int posix_spawn_file_actions_destroy(Pointer fileActions);

        int posix_spawn_file_actions_adddup2(Pointer fileActions, int fd, int newFd);

        int posix_spawn_file_actions_addopen(Pointer fileActions, int fd, String path, int flags, int mode);

        int posix_spawn_file_actions_addchdir_np(Pointer fileActions, String path);

        int posix_spawn_file_actions_addclosefrom_np(Pointer fileActions, int from);

        int posix_spawnattr_init(Pointer attributes);

        int posix_spawnattr_destroy(Pointer attributes);

        int posix_spawnattr_setflags(Pointer attributes, short flags);

        int posix_spawnattr_setsigmask(Pointer attributes, Pointer mask);

        int posix_spawnattr_setsigdefault(Pointer attributes, Pointer signals);

        int sigemptyset(Pointer set);

        int sigfillset(Pointer set);

        /** pipe2(2): -1 and errno on failure. */
        int pipe2(int[] fds, int flags);

        int close(int fd);

        /** write(2): the bytes written, or -1 and errno. */
        long write(int fd, byte[] buffer, long count);

        /** waitpid(2): the pid, 0 (WNOHANG, still running) or -1 and errno. */
        int waitpid(int pid, IntByReference status, int options);

        /** waitid(2): 0 or -1 and errno. */
        int waitid(int idType, int id, Pointer info, int options);

        int kill(int pid, int signal);

        /** strerror(3): the C library's text for an error number. */
        String strerror(int error);
    }

    static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    static final short POSIX_SPAWN_SETSID = 0x80;
    static final int O_WRONLY = 1;
    static final int O_CLOEXEC = 0x80000;
    /** Larger than glibc's posix_spawn_file_actions_t (80 bytes), posix_spawnattr_t (336) and sigset_t (128). */
    private static final int OPAQUE = 512;

    private static final List<String> NEEDED = List.of("posix_spawn", "posix_spawn_file_actions_addclosefrom_np",
            "posix_spawn_file_actions_addchdir_np", "posix_spawnattr_setflags", "pipe2", "waitid");

    private final Spawn libc;

    private NativeSpawn(Spawn libc) {
        this.libc = libc;
    }

    /** The spawner, or empty where this libc lacks what it needs (then use ProcessBuilder). */
    static Optional<NativeSpawn> load() {
        try {
            NativeLibrary c = NativeLibrary.getInstance("c");
            for (String symbol : NEEDED) {
                c.getFunction(symbol);
            }
            return Optional.of(new NativeSpawn(Native.load("c", Spawn.class)));
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts {@code argv} (its first element an absolute path) as described above.
     *
     * @throws IOException naming the error when the pipe, the spawn or the exec fails (nothing then runs)
     */
    SpawnedProcess spawn(List<String> argv, Map<String, String> environment, Path dir) throws IOException {
        int[] pipe = new int[2];
        if (libc.pipe2(pipe, O_CLOEXEC) != 0) {
            throw new IOException("pipe2: error " + Native.getLastError());
        }
        boolean handedOver = false;
        try (Memory actions = new Memory(OPAQUE); Memory attributes = new Memory(OPAQUE);
                Memory noSignals = new Memory(OPAQUE); Memory allSignals = new Memory(OPAQUE)) {
            check("posix_spawn_file_actions_init", libc.posix_spawn_file_actions_init(actions));
            check("posix_spawnattr_init", libc.posix_spawnattr_init(attributes));
            try {
                check("adddup2", libc.posix_spawn_file_actions_adddup2(actions, pipe[0], 0));
                check("addopen", libc.posix_spawn_file_actions_addopen(actions, 1, "/dev/null", O_WRONLY, 0));
                check("adddup2", libc.posix_spawn_file_actions_adddup2(actions, 1, 2));
                check("addchdir_np", libc.posix_spawn_file_actions_addchdir_np(actions, dir.toString()));
                check("addclosefrom_np", libc.posix_spawn_file_actions_addclosefrom_np(actions, 3));
                libc.sigemptyset(noSignals);
                libc.sigfillset(allSignals);
                check("setsigmask", libc.posix_spawnattr_setsigmask(attributes, noSignals));
                check("setsigdefault", libc.posix_spawnattr_setsigdefault(attributes, allSignals));
                check("setflags", libc.posix_spawnattr_setflags(attributes,
                        (short) (POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)));
                String[] env = environment.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
                IntByReference pid = new IntByReference();
                int error = libc.posix_spawn(pid, argv.get(0), actions, attributes, argv.toArray(String[]::new), env);
                if (error != 0) {
                    throw new IOException("Cannot run program \"" + argv.get(0) + "\": error=" + error + ", " + libc.strerror(error));
                }
                handedOver = true;
                return new SpawnedProcess(libc, pid.getValue(), pipe[1]);
            } finally {
                libc.posix_spawn_file_actions_destroy(actions);
                libc.posix_spawnattr_destroy(attributes);
            }
        } finally {
            libc.close(pipe[0]);
            if (!handedOver) {
                libc.close(pipe[1]);
            }
        }
    }

    private void check(String call, int error) throws IOException {
        if (error != 0) {
            throw new IOException(call + ": error=" + error + ", " + libc.strerror(error));
        }
    }
}
