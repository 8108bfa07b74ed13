package dev.gantry.scheduler.control;

import java.util.ArrayList;
import java.util.List;

/**
 * A job's dependency list as {@code -d/--dependency} writes it (https://slurm.schedmd.com/sbatch.html#OPT_dependency):
 * {@code type:id[:id...][,type:id...]} (every term must hold) or {@code type:id[?type:id...]} (any term may hold);
 * types after, afterany, afterok, afternotok, aftercorr and singleton; ids {@code 123}, {@code 123_4},
 * {@code 123_*} and {@code 123_[1-3,5]}; {@code after:id+minutes}; a bare list of ids means afterany.
 * An empty string or "0" is no dependency, as in Slurm.
 *
 * @param terms the conditions, in the order written
 * @param anyOf true when the terms were joined with '?'
 */
public record Dependency(List<DependencyTerm> terms, boolean anyOf) {

    /** No dependency. */
    public static final Dependency NONE = new Dependency(List.of(), false);

    /** Slurm's message for every malformed or impossible dependency (ESLURM_DEPENDENCY). */
    public static final String PROBLEM = "Job dependency problem";

    /** Task ids in {@code id_[...]} above this are refused (Slurm's largest MaxArraySize is 4000001). */
    private static final int MAX_TASK_ID = 4_000_000;

    public Dependency {
        terms = List.copyOf(terms);
    }

    public boolean isEmpty() {
        return terms.isEmpty();
    }

    /**
     * Parses a --dependency value. Syntax only: whether the jobs exist is {@link DependencyPolicy#checkAtSubmit}'s.
     *
     * @throws InvalidControlException field "dependency", message "Job dependency problem"
     */
    public static Dependency parse(String text) {
        String s = text == null ? "" : text.trim();
        if (s.isEmpty() || s.equals("0")) {
            return NONE;
        }
        boolean and = false;
        boolean or = false;
        List<DependencyTerm> terms = new ArrayList<>();
        int start = 0;
        int depth = 0; // inside id_[...], ',' belongs to the task list
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ',';
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            if ((c != ',' && c != '?') || (depth > 0 && i < s.length())) {
                continue;
            }
            if (i < s.length()) {
                and |= c == ',';
                or |= c == '?';
            }
            String token = s.substring(start, i);
            if (token.isEmpty()) {
                throw problem(s, "empty element");
            }
            parseToken(token, s, terms);
            start = i + 1;
        }
        if (and && or) {
            throw problem(s, "use either ',' (all must hold) or '?' (any may hold), not both");
        }
        return new Dependency(terms, or);
    }

    private static void parseToken(String token, String whole, List<DependencyTerm> out) {
        if (token.equalsIgnoreCase("singleton")) {
            out.add(DependencyTerm.singleton());
            return;
        }
        int colon = token.indexOf(':');
        if (colon < 0) {
            if (!Character.isDigit(token.charAt(0))) {
                throw problem(whole, "'" + token + "' is neither type:job_id nor a job id");
            }
            parseIds(DependencyType.AFTER_ANY, token, whole, out);
            return;
        }
        DependencyType type = DependencyType.ofKeyword(token.substring(0, colon))
                .orElseThrow(() -> problem(whole, "unknown dependency type '" + token.substring(0, colon) + "'"));
        String ids = token.substring(colon + 1);
        int start = 0;
        int depth = 0; // inside id_[...], ':' is a range step
        for (int i = 0; i <= ids.length(); i++) {
            char c = i < ids.length() ? ids.charAt(i) : ':';
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            if (c == ':' && (depth <= 0 || i == ids.length())) {
                parseIds(type, ids.substring(start, i), whole, out);
                start = i + 1;
            }
        }
    }

    /** One id: {@code 123}, {@code 123_4}, {@code 123_*} or {@code 123_[1-3]}, with {@code +minutes} for after. */
    private static void parseIds(DependencyType type, String id, String whole, List<DependencyTerm> out) {
        long delay = 0;
        int plus = id.indexOf('+');
        String ref = id;
        if (plus >= 0) {
            if (type != DependencyType.AFTER) {
                throw problem(whole, "+time is only for after: ('" + id + "')");
            }
            String minutes = id.substring(plus + 1);
            if (!digits(minutes) || minutes.length() > 9 || Long.parseLong(minutes) <= 0) {
                throw problem(whole, "'" + id + "': the delay must be a positive number of minutes");
            }
            delay = Long.parseLong(minutes);
            ref = id.substring(0, plus);
        }
        int underscore = ref.indexOf('_');
        String job = underscore < 0 ? ref : ref.substring(0, underscore);
        if (!digits(job) || job.length() > 18 || Long.parseLong(job) == 0) {
            throw problem(whole, "'" + id + "' is not a job id");
        }
        long jobId = Long.parseLong(job);
        if (underscore < 0) {
            out.add(new DependencyTerm(type, DependencyTarget.job(jobId), delay));
            return;
        }
        String task = ref.substring(underscore + 1);
        if (task.equals("*")) {
            out.add(new DependencyTerm(type, DependencyTarget.allTasks(jobId), delay));
        } else if (task.startsWith("[") && task.endsWith("]") && task.length() > 2) {
            int[] ids;
            try {
                ids = ArraySpec.parseIndexes(task.substring(1, task.length() - 1), MAX_TASK_ID + 1);
            } catch (IllegalArgumentException e) {
                throw problem(whole, "'" + id + "': bad task list");
            }
            for (int t : ids) {
                out.add(new DependencyTerm(type, DependencyTarget.task(jobId, t), delay));
            }
        } else if (digits(task) && task.length() <= 7 && Integer.parseInt(task) <= MAX_TASK_ID) {
            out.add(new DependencyTerm(type, DependencyTarget.task(jobId, Integer.parseInt(task)), delay));
        } else {
            throw problem(whole, "'" + id + "' is not a job id");
        }
    }

    private static boolean digits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    public static InvalidControlException problem(String whole, String detail) {
        return new InvalidControlException("dependency", PROBLEM, "--dependency=" + whole + ": " + detail);
    }

    /** As Slurm shows it (scontrol Dependency=): terms joined with ',' or '?', e.g. {@code afterok:12,afterany:13_*}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (DependencyTerm t : terms) {
            if (!b.isEmpty()) {
                b.append(anyOf ? '?' : ',');
            }
            b.append(t);
        }
        return b.toString();
    }
}
