/**
 * Who may see and do what: Slurm's authorization rules, as pure functions of the caller and the config.
 *
 * <p><b>Data.</b> A {@link dev.gantry.scheduler.access.Requester} is the authenticated caller as the rules see it
 * (user, uid, {@link dev.gantry.scheduler.model.Role}); {@link dev.gantry.scheduler.access.PrivateData} is the config's
 * PrivateData= kinds. Nothing here keeps state: every answer is a function of those two and the thing asked about.
 *
 * <p><b>Rules</b> ({@link dev.gantry.scheduler.access.Visibility}), each copied from Slurm 22.05's slurmctld:
 * <ul>
 *   <li><i>PrivateData=jobs</i>: a user sees only their own jobs and job steps (job_mgr.c {@code _hide_job_user_rec},
 *       step_mgr.c {@code _pack_job_steps}); operators and administrators see all ({@code validate_operator}). A job
 *       hidden this way is answered as one that does not exist ("Invalid job id specified"), as pack_one_job does. sprio
 *       follows the same rule (priority_multifactor.c filters by PRIVATE_DATA_JOBS, not USAGE).</li>
 *   <li><i>PrivateData=usage</i>: sshare shows a user only the rows of their own associations, no account rows
 *       (assoc_mgr.c {@code assoc_mgr_get_shares}); operators and administrators see every row.</li>
 *   <li><i>PrivateData=nodes / partitions</i>: node and partition listings are refused to users (proc_req.c, answered
 *       ESLURM_ACCESS_DENIED).</li>
 *   <li><i>Whatever PrivateData says</i>, a job's batch script and its submitted environment are its owner's, operators'
 *       and administrators' only (proc_req.c {@code _slurm_rpc_dump_batch_script}: "Invalid user id" otherwise). Slurm
 *       never puts them in job listings, and neither does Gantry: only GetJob's JOB_VIEW_PRIVATE and GetBatchScript
 *       carry them, to those three. The arguments (Slurm's Command=) stay visible to whoever sees the job, as in
 *       Slurm.</li>
 * </ul>
 * Slurm's account coordinators (who also see their accounts' jobs and usage) have no counterpart: Gantry's config has
 * no coordinators.
 */
package dev.gantry.scheduler.access;
