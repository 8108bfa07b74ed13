package dev.gantry.scheduler.submit;

/** What {@link NodeRequest#parse} finds: the parsed request, or the first problem as a {@link Misfit} naming the field. */
sealed interface NodeRequestOutcome permits NodeRequest, Misfit {}
