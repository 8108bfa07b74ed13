package dev.gantry.scheduler.control;

import java.util.Locale;
import java.util.Optional;

/** Slurm's dependency types (https://slurm.schedmd.com/sbatch.html#OPT_dependency), with their keywords. */
public enum DependencyType {
    /** After the job started (or was cancelled), plus an optional delay in minutes. */
    AFTER("after"),
    /** After the job ended, in any state. The type of a bare job id. */
    AFTER_ANY("afterany"),
    /** After the job ended other than COMPLETED; never once it COMPLETED. */
    AFTER_NOT_OK("afternotok"),
    /** After the job COMPLETED (exit 0); never once it ended otherwise. */
    AFTER_OK("afterok"),
    /** Task N of this array after task N of that one COMPLETED. */
    AFTER_CORR("aftercorr"),
    /** After no other job of the same name and user runs or is suspended (or pends ahead of this one). */
    SINGLETON("singleton");

    private final String keyword;

    DependencyType(String keyword) {
        this.keyword = keyword;
    }

    /** The keyword as written in --dependency and shown by scontrol. */
    public String keyword() {
        return keyword;
    }

    /** The type of that keyword, case-insensitively; singleton is not a {@code type:id} keyword. */
    static Optional<DependencyType> ofKeyword(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (DependencyType t : values()) {
            if (t != SINGLETON && t.keyword.equals(w)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
