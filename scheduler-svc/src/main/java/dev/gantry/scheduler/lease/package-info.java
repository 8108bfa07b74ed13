/**
 * The controller lease (pure): which of two controllers on one database is active, as rules over values.
 *
 * <p><b>Data.</b> One {@link dev.gantry.scheduler.lease.Lease} row: its holder (a controller's name), the holder's
 * client address (where a standby redirects callers), a fencing number and when it expires, on the database's clock.
 *
 * <p><b>Rules</b> ({@link dev.gantry.scheduler.lease.LeaseRules}). A controller takes the lease when nobody holds it,
 * when it has expired, or when it names this controller already (a restart of the same controller: its name is unique,
 * the state directory's lock or the StatefulSet's pod name make it so); taking it always raises the fencing number, so
 * even a same-named older incarnation is fenced. The holder renews every {@code renewEvery}, each renewal moving the
 * expiry to the database's now + {@code ttl}. The holder considers itself deposed once {@code ttl} has passed on its
 * own monotonic clock since it <em>sent</em> its last successful renewal: that instant precedes the database's now at
 * the renewal, so the holder stops before any standby can see the lease expired, whatever the hosts' clocks say.
 *
 * <p><b>From where.</b> Slurm's backup controller (SlurmctldHost listed twice) takes over when the primary stops
 * answering its pings for SlurmctldTimeout, sharing StateSaveLocation; Gantry shares the database instead and uses a
 * lease with a fencing token (Kleppmann, "How to do distributed locking", 2016) so a paused controller cannot write
 * after its successor started. See docs/slurm-differences.md.
 */
package dev.gantry.scheduler.lease;
