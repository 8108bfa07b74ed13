package dev.gantry.agent.process;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * A child of the agent started by {@link NativeSpawn}, as a {@link Process}: the agent reaps it itself (waitpid), as
 * the JDK does for the children it starts. Its stdin is the pipe {@link #getOutputStream} writes; it has no stdout or
 * stderr to read. The exit value follows the JDK's convention: the exit code, or 128 + the signal that killed it.
 *
 * <p>Thread-safe: one thread may block in {@link #waitFor()} while others ask {@link #isAlive} or {@link #exitValue}
 * (which never reap it from under the waiter without recording the result first).
 */
final class SpawnedProcess extends Process {

    private static final int WNOHANG = 1;
    private static final int WEXITED = 4;
    private static final int WNOWAIT = 0x01000000;
    private static final int P_PID = 1;
    private static final int EINTR = 4;
    private static final int ECHILD = 10;
    /** siginfo_t is 128 bytes; si_pid is at offset 16 on Linux (x86_64 and aarch64). */
    private static final int SIGINFO_SIZE = 128;
    private static final int SI_PID_OFFSET = 16;

    private final NativeSpawn.Spawn libc;
    private final int pid;
    private final OutputStream stdin;
    /** The exit value once reaped; guarded by this. */
    private Integer exitValue;

    SpawnedProcess(NativeSpawn.Spawn libc, int pid, int stdinFd) {
        this.libc = libc;
        this.pid = pid;
        this.stdin = new PipeOutput(libc, stdinFd);
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
    }

    @Override
    public InputStream getInputStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public int waitFor() throws InterruptedException {
        while (true) {
            Optional<Integer> value = reap(0);
            if (value.isPresent()) {
                return value.get();
            }
            synchronized (this) {
                while (exitValue == null) {
                    wait(); // another thread reaped it (ECHILD here) and records the value
                }
                return exitValue;
            }
        }
    }

    @Override
    public int exitValue() {
        return reap(WNOHANG).orElseThrow(() -> new IllegalThreadStateException("process " + pid + " has not exited"));
    }

    @Override
    public boolean isAlive() {
        synchronized (this) {
            if (exitValue != null) {
                return false;
            }
        }
        try (Memory info = new Memory(SIGINFO_SIZE)) {
            info.clear();
            if (libc.waitid(P_PID, pid, info, WEXITED | WNOHANG | WNOWAIT) != 0) {
                return false; // ECHILD: reaped meanwhile
            }
            return info.getInt(SI_PID_OFFSET) == 0; // no exited child with this pid: it runs
        }
    }

    @Override
    public void destroy() {
        signal(15);
    }

    @Override
    public Process destroyForcibly() {
        signal(9);
        return this;
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public ProcessHandle toHandle() {
        return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("process " + pid + " is gone"));
    }

    private void signal(int signal) {
        synchronized (this) {
            if (exitValue == null) { // once reaped, the pid may belong to someone else
                libc.kill(pid, signal);
            }
        }
    }

    /**
     * waitpid with {@code options}: the exit value when this call or an earlier one reaped the child; empty when it
     * still runs (WNOHANG) or another thread is reaping it right now (ECHILD before the value is recorded).
     */
    private Optional<Integer> reap(int options) {
        synchronized (this) {
            if (exitValue != null) {
                return Optional.of(exitValue);
            }
        }
        IntByReference status = new IntByReference();
        int r;
        do {
            r = libc.waitpid(pid, status, options);
        } while (r == -1 && Native.getLastError() == EINTR);
        synchronized (this) {
            if (r == pid) {
                int s = status.getValue();
                exitValue = (s & 0x7f) == 0 ? (s >> 8) & 0xff : 0x80 + (s & 0x7f);
                notifyAll();
            }
            return Optional.ofNullable(exitValue);
        }
    }

    /** The write end of the child's stdin pipe. */
    private static final class PipeOutput extends OutputStream {
        private final NativeSpawn.Spawn libc;
        private int fd;

        PipeOutput(NativeSpawn.Spawn libc, int fd) {
            this.libc = libc;
            this.fd = fd;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            if (fd < 0) {
                throw new IOException("Stream closed");
            }
            byte[] rest = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
            while (rest.length > 0) {
                long n = libc.write(fd, rest, rest.length);
                if (n < 0) {
                    int errno = Native.getLastError();
                    if (errno == EINTR) {
                        continue;
                    }
                    throw new IOException(errno == 32 ? "Broken pipe" : "write: errno " + errno);
                }
                rest = java.util.Arrays.copyOfRange(rest, (int) n, rest.length);
            }
        }

        @Override
        public synchronized void close() {
            if (fd >= 0) {
                libc.close(fd);
                fd = -1;
            }
        }
    }
}
