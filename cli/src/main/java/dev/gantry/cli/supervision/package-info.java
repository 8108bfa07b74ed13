/**
 * What the local cluster's supervisor decides, with no process, thread or clock of its own (docs/style.md, rules 1
 * and 2): when a service that exited is started again, when it is given up, and how its exit reads.
 *
 * <p><b>Data.</b> One {@link dev.gantry.cli.supervision.ServiceWatch} per service {@code gantry up} started: its state
 * (running, waiting to restart, stopped on purpose, given up), its pid, when it started, how many times the supervisor
 * restarted it, how many of its runs in a row ended early, and its last exit.
 *
 * <p><b>Algorithm.</b> {@link dev.gantry.cli.supervision.RestartPolicy}: an exit the supervisor did not ask for is a
 * crash; the service is started again after a back-off that starts at {@code initial} and doubles with each crash in
 * a row, up to {@code max}. A run that lasted {@code stableAfter} or longer resets the row (its crash waits
 * {@code initial} again). After {@code giveUpAfter} crashes in a row the supervisor stops trying; {@code gantry
 * restart} starts the service again and clears the row. A stop that {@code gantry restart} or {@code gantry down}
 * asked for is not a crash and is not counted. It is systemd's {@code Restart=on-failure} with
 * {@code RestartSec}/{@code RestartMaxDelaySec}/{@code RestartSteps} and {@code StartLimitBurst}
 * (systemd.service(5)), with Kubernetes' CrashLoopBackOff numbers (10 s doubling to 5 min, reset after 10 min of
 * running) scaled down for a local cluster: 1 s doubling to 30 s, reset after a minute.
 */
package dev.gantry.cli.supervision;
