package dev.gantry.scheduler.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * The steps (srun) of running jobs, as slurmctld keeps them: each job numbers its steps 0, 1, … in the order they
 * are created (the batch script is the step "batch", not kept here); a step stays until srun reports its end or
 * its job stops running. A step id is never given twice within one run of a job, also across a controller restart:
 * the registry is rebuilt from what was stored ({@link #restore}), the numbering included. Pure, not thread-safe: the
 * controller thread owns it.
 */
public final class StepRegistry {

    /** One step of a job. */
    public record Step(long jobId, int stepId, String name, List<String> nodes, int numTasks, List<String> argv, Instant startTime,
            long jobRunSecondsAtStart) {
        /** {@link #jobRunSecondsAtStart} of a step stored before it was kept. */
        public static final long UNKNOWN = -1;

        public Step {
            nodes = List.copyOf(nodes);
            argv = List.copyOf(argv);
        }

        /** A step whose job's run time at its start is not known. */
        public Step(long jobId, int stepId, String name, List<String> nodes, int numTasks, List<String> argv, Instant startTime) {
            this(jobId, stepId, name, nodes, numTasks, argv, startTime, UNKNOWN);
        }

        /**
         * Seconds the step has run (squeue -s TIME): its job's run time since the step started, so time the job spent
         * suspended meanwhile is left out; from its start time when the job's run time then is {@link #UNKNOWN}.
         *
         * @param jobRunSeconds the job's run time now ({@code JobRecord.runSeconds})
         */
        public long runSeconds(long jobRunSeconds, Instant now) {
            if (jobRunSecondsAtStart == UNKNOWN) {
                return Math.max(0, now.getEpochSecond() - startTime.getEpochSecond());
            }
            return Math.max(0, jobRunSeconds - jobRunSecondsAtStart);
        }

        /** Slurm's step id: {@code jobid.stepid}. */
        public String id() {
            return jobId + "." + stepId;
        }
    }

    private final Map<Long, TreeMap<Integer, Step>> steps = new HashMap<>();
    private final Map<Long, Integer> nextStepId = new HashMap<>();

    /**
     * Registers a new step of a running job, with the job's next step id.
     *
     * @param jobRunSeconds the job's run time now, suspended time excluded
     */
    public Step add(long jobId, String name, List<String> nodes, int numTasks, List<String> argv, Instant now,
            long jobRunSeconds) {
        int id = nextStepId.merge(jobId, 1, Integer::sum) - 1;
        Step step = new Step(jobId, id, name, nodes, numTasks, argv, now, jobRunSeconds);
        steps.computeIfAbsent(jobId, j -> new TreeMap<>()).put(id, step);
        return step;
    }

    /**
     * Takes back stored steps and numbering (at start, before any {@link #add}): {@code nextStepIds} is each job's
     * next step id as stored; a step at or above it (stored without its numbering) moves the numbering past it.
     */
    public void restore(Collection<Step> stored, Map<Long, Integer> nextStepIds) {
        nextStepIds.forEach((job, next) -> nextStepId.merge(job, next, Math::max));
        for (Step s : stored) {
            steps.computeIfAbsent(s.jobId(), j -> new TreeMap<>()).put(s.stepId(), s);
            nextStepId.merge(s.jobId(), s.stepId() + 1, Math::max);
        }
    }

    /** The id the job's next step gets (0 for a job without steps so far). */
    public int nextStepId(long jobId) {
        return nextStepId.getOrDefault(jobId, 0);
    }

    /** Forgets a step that ended; whether it was known. Idempotent. */
    public boolean complete(long jobId, int stepId) {
        TreeMap<Integer, Step> of = steps.get(jobId);
        return of != null && of.remove(stepId) != null;
    }

    /** The job's running steps, by step id. */
    public List<Step> of(long jobId) {
        TreeMap<Integer, Step> of = steps.get(jobId);
        return of == null ? List.of() : List.copyOf(of.values());
    }

    /**
     * Forgets the steps and the step numbering of every job that is no longer running (a requeued job numbers its
     * steps from 0 again, as Slurm does). Returns the ids of the jobs forgotten.
     */
    public List<Long> retainRunning(LongPredicate running) {
        List<Long> gone = new ArrayList<>();
        java.util.Set<Long> known = new java.util.HashSet<>(nextStepId.keySet());
        known.addAll(steps.keySet());
        for (Long id : known) {
            if (!running.test(id)) {
                gone.add(id);
            }
        }
        gone.forEach(id -> {
            steps.remove(id);
            nextStepId.remove(id);
        });
        return gone;
    }
}
