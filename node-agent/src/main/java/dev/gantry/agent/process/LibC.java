package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The few libc calls the agent needs, through JNA (no fork of /bin/kill). */
interface LibC extends Library {

    LibC INSTANCE = Native.load("c", LibC.class);

    int ESRCH = 3;
    int SC_CLK_TCK = 2;
    int SC_PAGESIZE = 30;

    /** kill(2): a negative {@code pid} signals every process of group -pid. */
    int kill(int pid, int signal) throws LastErrorException;

    long sysconf(int name);

    /** sched_setaffinity(2): binds process {@code pid} (and what it forks later) to the CPUs set in {@code mask}. */
    int sched_setaffinity(int pid, long cpusetsize, long[] mask) throws LastErrorException;

    int geteuid();

    /** getpwuid(3): null when no passwd entry has this uid. Only compared with null (its buffer is shared). */
    Pointer getpwuid(int uid);

    /** open(2) with {@link OpenFlags}' values. */
    int open(String path, int flags) throws LastErrorException;

    /** read(2): bytes read, 0 at the end. */
    long read(int fd, byte[] buffer, long count) throws LastErrorException;

    int close(int fd) throws LastErrorException;

    /** open(2)'s flags, which differ between architectures. */
    final class OpenFlags {
        static final int O_RDONLY = 0;
        static final int O_NONBLOCK = 04000;
        static final int O_CLOEXEC = 02000000;
        /** 0400000 on x86_64, 0100000 on arm64 (asm-generic vs x86's own fcntl.h). */
        static final int O_NOFOLLOW = switch (System.getProperty("os.arch")) {
            case "aarch64", "arm64" -> 0100000;
            default -> 0400000;
        };

        private OpenFlags() {}
    }
}
