package dev.gantry.scheduler.control;

import java.util.List;

/**
 * The controller's current knowledge of the jobs a dependency names; implemented over ClusterState. Implementations
 * answer from one consistent state (the controller thread); the policy calls them only during one evaluation.
 */
public interface DependencyView {

    /**
     * The jobs a target stands for: the one job for {@code 123} or {@code 123_4}; every task of the array (pending
     * remainder included) for {@code 123_*}, and for {@code 123} when 123 is an array job id. Empty when the
     * controller does not know the job: it never existed or was purged after MinJobAge.
     */
    List<DependencyJob> resolve(DependencyTarget target);

    /** Every job of this user with this job name (the asking job may be among them; it is ignored). */
    List<DependencyJob> sameNameAndUser(String user, String name);
}
