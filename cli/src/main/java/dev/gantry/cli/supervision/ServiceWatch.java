package dev.gantry.cli.supervision;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * What the supervisor knows of one service, as an immutable value: each event (started, exited, a stop asked for)
 * returns the next value, and {@link #due} says when a waiting restart is due. Restarts the supervisor makes after
 * crashes are counted; a restart or stop asked for ({@code gantry restart}, {@code gantry down}) is not.
 *
 * @param pid the running process, or the last one
 * @param started when that process was started
 * @param restarts restarts after crashes since {@code gantry up}
 * @param crashesInARow crashes since the last run that lasted {@link RestartPolicy#stableAfter}
 * @param lastExit the last exit's description, if the service exited since {@code gantry up}
 * @param lastExitAt when it was seen
 * @param restartAt when the waiting restart is due ({@link State#RESTARTING} only)
 */
public record ServiceWatch(String name, State state, long pid, Instant started, int restarts, int crashesInARow,
        Optional<String> lastExit, Optional<Instant> lastExitAt, Optional<Instant> restartAt) {

    /** Where a service stands. */
    public enum State {
        /** its process runs */
        RUNNING("running"),
        /** a stop was asked for and the process has not exited yet */
        STOPPING("stopping"),
        /** it crashed; the restart waits for its back-off */
        RESTARTING("restarting"),
        /** stopped as asked */
        STOPPED("stopped"),
        /** it crashed {@link RestartPolicy#giveUpAfter} times in a row: left down until gantry restart */
        GIVEN_UP("given up");

        private final String word;

        State(String word) {
            this.word = word;
        }

        /** The word {@code gantry status} shows. */
        public String word() {
            return word;
        }
    }

    /** A service first started by {@code gantry up} (or found running when the supervisor starts). */
    public static ServiceWatch started(String name, long pid, Instant now) {
        return new ServiceWatch(name, State.RUNNING, pid, now, 0, 0, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * Its process exited with {@code status}: stopped as asked, or a crash, restarted after the policy's back-off or
     * given up.
     */
    public ServiceWatch exited(ExitStatus status, Instant now, RestartPolicy policy) {
        Optional<String> exit = Optional.of(status.describe());
        if (state == State.STOPPING) {
            return new ServiceWatch(name, State.STOPPED, pid, started, restarts, crashesInARow, exit, Optional.of(now), Optional.empty());
        }
        if (state != State.RUNNING) {
            throw new IllegalStateException(name + " is " + state.word() + ": no process of it runs to exit");
        }
        int inARow = policy.stable(Duration.between(started, now)) ? 1 : crashesInARow + 1;
        if (inARow >= policy.giveUpAfter()) {
            return new ServiceWatch(name, State.GIVEN_UP, pid, started, restarts, inARow, exit, Optional.of(now), Optional.empty());
        }
        return new ServiceWatch(name, State.RESTARTING, pid, started, restarts, inARow, exit, Optional.of(now),
                Optional.of(now.plus(policy.backoff(inARow))));
    }

    /**
     * A due restart could not start a process ({@code why}: the program gone, no memory to fork): counted as a crash in
     * the row, so it waits longer each time and is given up as a crashing one is.
     */
    public ServiceWatch notStarted(String why, Instant now, RestartPolicy policy) {
        if (state != State.RESTARTING) {
            throw new IllegalStateException(name + " is " + state.word() + ", not waiting to restart");
        }
        int inARow = crashesInARow + 1;
        Optional<String> exit = Optional.of("could not start: " + why);
        if (inARow >= policy.giveUpAfter()) {
            return new ServiceWatch(name, State.GIVEN_UP, pid, started, restarts, inARow, exit, Optional.of(now), Optional.empty());
        }
        return new ServiceWatch(name, State.RESTARTING, pid, started, restarts, inARow, exit, Optional.of(now),
                Optional.of(now.plus(policy.backoff(inARow))));
    }

    /** Whether the waiting restart is due at {@code now}. */
    public boolean due(Instant now) {
        return state == State.RESTARTING && restartAt.isPresent() && !now.isBefore(restartAt.get());
    }

    /** The supervisor restarted it after a crash, as process {@code newPid}: one restart more. */
    public ServiceWatch restarted(long newPid, Instant now) {
        if (state != State.RESTARTING) {
            throw new IllegalStateException(name + " is " + state.word() + ", not waiting to restart");
        }
        return new ServiceWatch(name, State.RUNNING, newPid, now, restarts + 1, crashesInARow, lastExit, lastExitAt, Optional.empty());
    }

    /** A stop was asked for ({@code gantry restart} or {@code gantry down}): its exit will not be a crash. */
    public ServiceWatch stopping() {
        return switch (state) {
            case RUNNING -> new ServiceWatch(name, State.STOPPING, pid, started, restarts, crashesInARow, lastExit, lastExitAt, Optional.empty());
            // nothing runs: it is stopped at once (a waiting restart is called off)
            case RESTARTING, GIVEN_UP -> new ServiceWatch(name, State.STOPPED, pid, started, restarts, crashesInARow, lastExit, lastExitAt,
                    Optional.empty());
            case STOPPING, STOPPED -> this;
        };
    }

    /**
     * Started again as asked ({@code gantry restart}), as process {@code newPid}: not counted as a restart, and the
     * row of crashes is cleared (a service given up is tried again).
     */
    public ServiceWatch startedAsAsked(long newPid, Instant now) {
        return new ServiceWatch(name, State.RUNNING, newPid, now, restarts, 0, lastExit, lastExitAt, Optional.empty());
    }

    /** What {@code gantry status} shows after the state: "restarts=2 last exit: killed by signal 9 (SIGKILL) at …". */
    public String describe(Instant now) {
        StringBuilder b = new StringBuilder("restarts=").append(restarts);
        if (lastExit.isPresent()) {
            b.append(" last exit: ").append(lastExit.get()).append(" at ")
                    .append(lastExitAt.orElseThrow().truncatedTo(ChronoUnit.SECONDS));
        }
        if (state == State.RESTARTING) {
            long s = Math.max(0, Duration.between(now, restartAt.orElseThrow()).toMillis() + 999) / 1000;
            b.append(" (restart ").append(crashesInARow).append(" in a row, in ").append(s).append(" s)");
        }
        if (state == State.GIVEN_UP) {
            b.append(" (").append(crashesInARow).append(" crashes in a row: bin/gantry restart ").append(name).append(" to try again)");
        }
        return b.toString();
    }
}
