/**
 * Following the active controller when there are two (a standby, docs/ARCHITECTURE.md "Standby controller"): the
 * controller address settings accept several addresses ({@link dev.gantry.common.failover.ControllerAddresses}), a
 * standby answers UNAVAILABLE with the active one's address ({@link dev.gantry.common.failover.ControllerRedirect}),
 * and {@link dev.gantry.common.failover.FollowingChannel} sends each call to the address that answered last, moving on
 * after UNAVAILABLE (refused, or a standby's redirect) or DEADLINE_EXCEEDED (a frozen controller).
 */
package dev.gantry.common.failover;
