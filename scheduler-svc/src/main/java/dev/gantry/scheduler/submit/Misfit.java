package dev.gantry.scheduler.submit;

/**
 * Why a request cannot run: the JobSpec field at fault (its name in the API, which clients see) and the message naming
 * the limit. The failing side of both {@link NodeRequest#parse} and {@link PartitionFit#check}.
 */
record Misfit(String field, String message) implements NodeRequestOutcome, PartitionFit.Verdict {}
