package dev.gantry.scheduler.submit;

/** Why a request cannot run: the JobSpec field at fault and the message naming the limit. */
record Misfit(String field, String message) {}
