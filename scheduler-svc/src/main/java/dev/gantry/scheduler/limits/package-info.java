/**
 * Operational limits of the client API, decided purely: how many requests a user may make and how many streams a
 * user may hold open. The runtime (grpc.RequestLimits) asks these for every call and answers RESOURCE_EXHAUSTED
 * naming the limit; nothing here touches gRPC, threads or the wall clock (time comes as an {@code Instant}).
 *
 * <p><b>Request rate</b> ({@link dev.gantry.scheduler.limits.RequestRate}): Slurm's RPC rate limiting
 * (src/slurmctld/rate_limit.c, Slurm 23.02; slurm.conf(5) SlurmctldParameters rl_*), copied exactly: per uid a bucket of
 * rl_bucket_size tokens, created with one taken; time is counted in whole refill periods since the epoch, and each
 * period passed since the bucket's last request adds rl_refill_rate tokens, up to the bucket's size; a request takes
 * one token, and finds none when the user is over the limit. (Slurm divides a new bucket's first period by the
 * refill period twice, so with rl_refill_period above 1 its second request finds it full again; Gantry does not.) Root and SlurmUser are never limited. The table holds at
 * most rl_table_size users; when it is full Slurm stops limiting newcomers ("ran out of user table space"), Gantry
 * first forgets the buckets that have refilled completely (a full bucket is the same as none), and only then lets an
 * untracked user pass as Slurm does.
 *
 * <p><b>Streams</b> ({@link dev.gantry.scheduler.limits.StreamQuota}): a server-streaming call holds memory and a
 * thread for as long as it lasts, so a user may hold at most watch_max_per_user of them open and the controller at
 * most watch_max; a stream is counted from its start until it ends for any reason.
 */
package dev.gantry.scheduler.limits;
