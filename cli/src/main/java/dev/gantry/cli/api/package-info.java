/**
 * The adapter between the API's messages (gantry.v1) and the commands' domain values: the controller's jobs, nodes,
 * partitions, steps, priorities and shares into {@link dev.gantry.cli.model}, and sbatch's
 * {@link dev.gantry.cli.sbatch.BatchJob} into a {@code JobSpec}. Plain mapping, one call per message: no defaults
 * decided, no text formatted (the cores do that), nothing loaded at class initialisation.
 *
 * <p>The mapping keeps every field a report reads. Two readings are the API's own conventions: an unset timestamp and
 * an all-zero one are both "unset" (null), and an {@code optional} field left out is null. Enum values the API adds
 * later, and its UNSPECIFIED, read as the domain's UNKNOWN (for OverSubscribe: NO, as the API documents).
 */
package dev.gantry.cli.api;
