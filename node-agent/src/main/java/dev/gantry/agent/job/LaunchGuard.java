package dev.gantry.agent.job;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * This node's memory of the jobs it launched and the jobs it was told to terminate, so that a valid credential
 * cannot start a job twice (replay) or after it was cancelled (revocation: the controller issued the credential,
 * then cancelled the job before the launch arrived). As in Slurm, what is refused is a credential issued no later
 * than the launch or termination remembered: a job requeued and launched again gets a newer credential, which
 * passes. (Issue times are the controller's clock, termination times this node's: they are compared as they are,
 * so clock skew between them shifts the boundary by as much.)
 *
 * <p>An id is remembered for at least {@code memory} and, for a launch, until its credential expires: after
 * that the credential check refuses it anyway. {@code memory} must therefore exceed the longest credential
 * lifetime the controller issues. Forgetting keeps the table bounded on a long-lived agent.
 *
 * <p>Not thread-safe: the caller serializes access (the supervisor holds its lock).
 */
public final class LaunchGuard {

    /** What is remembered of a job: launched (with a credential issued {@code at}) or terminated ({@code at}). */
    public enum Mark { LAUNCHED, REVOKED }

    /** @param at the launched credential's issue time, or when the job was terminated here */
    private record Entry(Mark mark, Instant until, Instant at) {}

    /** One remembered job, as a {@link Journal} keeps it across agent restarts. */
    public record Record(long jobId, Mark mark, Instant until, Instant at) {}

    /**
     * Where the guard's memory outlives the agent process: a credential once used must stay used after a restart
     * (single-use), and a termination revoked. Told every change, on the caller's thread; must not block long.
     */
    public interface Journal {
        void remembered(Record record);

        void forgot(long jobId);

        Journal NONE = new Journal() {
            @Override
            public void remembered(Record record) {}

            @Override
            public void forgot(long jobId) {}
        };
    }

    private record Expiry(long jobId, Instant until) {}

    private final InstantSource clock;
    private final Duration memory;
    private final Map<Long, Entry> entries = new HashMap<>();
    private final Journal journal;
    private final PriorityQueue<Expiry> expiries = new PriorityQueue<>((a, b) -> a.until().compareTo(b.until()));

    public LaunchGuard(InstantSource clock, Duration memory) {
        this(clock, memory, Journal.NONE);
    }

    public LaunchGuard(InstantSource clock, Duration memory, Journal journal) {
        if (memory.isNegative() || memory.isZero()) {
            throw new IllegalArgumentException("memory must be positive, got " + memory);
        }
        this.clock = clock;
        this.memory = memory;
        this.journal = journal;
    }

    /** Takes back what an earlier run of the agent remembered (its journal's records); expired ones are dropped. */
    public void restore(java.util.List<Record> records) {
        for (Record r : records) {
            if (r.until().isAfter(clock.instant())) {
                entries.put(r.jobId(), new Entry(r.mark(), r.until(), r.at()));
                expiries.add(new Expiry(r.jobId(), r.until()));
            }
        }
    }

    /** Why the job may not be launched here with a credential issued at {@code issuedAt}, or empty when it may. */
    public Optional<String> refusal(long jobId, Instant issuedAt) {
        forgetExpired();
        Entry entry = entries.get(jobId);
        if (entry == null || issuedAt.isAfter(entry.at())) {
            return Optional.empty();
        }
        return Optional.of(switch (entry.mark()) {
            case LAUNCHED -> "job " + jobId + " was already launched on this node (replayed credential)";
            case REVOKED -> "job " + jobId + " was terminated on this node (credential revoked)";
        });
    }

    /**
     * Claims the id for a launch; precondition: {@link #refusal} is empty. A revocation recorded later still
     * wins: {@link #isRevoked} tells a launch in progress that it must not keep running.
     */
    public void launched(long jobId, Instant issuedAt, Instant credentialExpiry) {
        remember(jobId, Mark.LAUNCHED, later(credentialExpiry, clock.instant().plus(memory)), issuedAt);
    }

    /** Releases a claim whose launch never started a process, so that a later launch of the job may run. */
    public void launchAbandoned(long jobId) {
        Entry entry = entries.get(jobId);
        if (entry != null && entry.mark() == Mark.LAUNCHED) {
            entries.remove(jobId);
            journal.forgot(jobId);
        }
    }

    /** Records a TerminateJob: every later launch of the job is refused. Idempotent. */
    public void revoked(long jobId) {
        Entry entry = entries.get(jobId);
        Instant now = clock.instant();
        Instant until = now.plus(memory);
        remember(jobId, Mark.REVOKED, entry == null ? until : later(entry.until(), until), now);
    }

    public boolean isRevoked(long jobId) {
        Entry entry = entries.get(jobId);
        return entry != null && entry.mark() == Mark.REVOKED;
    }

    /** How many ids are remembered; for tests and diagnostics. */
    public int size() {
        forgetExpired();
        return entries.size();
    }

    private void remember(long jobId, Mark mark, Instant until, Instant at) {
        forgetExpired();
        entries.put(jobId, new Entry(mark, until, at));
        expiries.add(new Expiry(jobId, until));
        journal.remembered(new Record(jobId, mark, until, at));
    }

    private void forgetExpired() {
        Instant now = clock.instant();
        while (!expiries.isEmpty() && !expiries.peek().until().isAfter(now)) {
            Expiry expiry = expiries.poll();
            Entry entry = entries.get(expiry.jobId());
            if (entry != null && entry.until().equals(expiry.until())) {
                entries.remove(expiry.jobId());
                journal.forgot(expiry.jobId());
            }
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
