package dev.gantry.agent.process;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Every process the agent starts, and every job script it writes, go through here. A process forked while a script is
 * open for writing inherits the descriptor (until its jspawnhelper, or posix_spawn's closefrom action, closes it) and makes that script's exec fail with
 * ETXTBSY; descriptors belong to the whole JVM, so the guard does too. Spawns hold it shared (a spawn returns once its
 * child has exec'ed and dropped what it inherited, so spawns need not wait for each other), script writes exclusively.
 */
final class Spawns {
    private Spawns() {}

    private static final ReentrantReadWriteLock LOCK = new ReentrantReadWriteLock();

    /** What is done while no spawn runs. */
    interface Write<T> {
        T run() throws IOException;
    }

    static Process start(ProcessBuilder builder) throws IOException {
        LOCK.readLock().lock();
        try {
            return builder.start();
        } finally {
            LOCK.readLock().unlock();
        }
    }

    /** Starts a process some other way (the same guard applies). */
    static <P extends Process> P start(Write<P> spawn) throws IOException {
        LOCK.readLock().lock();
        try {
            return spawn.run();
        } finally {
            LOCK.readLock().unlock();
        }
    }

    static <T> T exclusively(Write<T> write) throws IOException {
        LOCK.writeLock().lock();
        try {
            return write.run();
        } finally {
            LOCK.writeLock().unlock();
        }
    }
}
