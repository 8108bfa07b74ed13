package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads the small file a job's status-keeping shell wrote (its exit status) from the job's spool directory, which
 * the job's user owns: without following a link (O_NOFOLLOW) and without blocking on a FIFO put in its place
 * (O_NONBLOCK), at most {@link #LIMIT} bytes. The agent reads it as root; nothing the user plants there can make
 * it read another file or wait forever.
 */
final class StatusFile {

    static final int LIMIT = 64;

    private StatusFile() {}

    /** The file's first {@link #LIMIT} bytes as text, or empty when it cannot be read as a plain file. */
    static Optional<String> read(Path file) {
        int fd;
        try {
            fd = LibC.INSTANCE.open(file.toString(),
                    LibC.OpenFlags.O_RDONLY | LibC.OpenFlags.O_NOFOLLOW | LibC.OpenFlags.O_NONBLOCK | LibC.OpenFlags.O_CLOEXEC);
        } catch (LastErrorException e) {
            return Optional.empty(); // missing, a link (ELOOP), not permitted
        }
        try {
            byte[] buf = new byte[LIMIT];
            int total = 0;
            while (total < LIMIT) {
                byte[] chunk = new byte[LIMIT - total];
                long n = LibC.INSTANCE.read(fd, chunk, chunk.length);
                if (n <= 0) {
                    break;
                }
                System.arraycopy(chunk, 0, buf, total, (int) n);
                total += (int) n;
            }
            return Optional.of(new String(buf, 0, total, StandardCharsets.US_ASCII));
        } catch (LastErrorException e) {
            return Optional.empty(); // EAGAIN (an empty FIFO), EISDIR
        } finally {
            try {
                LibC.INSTANCE.close(fd);
            } catch (LastErrorException ignored) {
                // nothing to do
            }
        }
    }
}
