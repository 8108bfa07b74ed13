package dev.gantry.gang.slice;

import java.time.Duration;

/** How long a job stayed suspended by gang-svc, known when it resumes or ends. */
public record SuspendedTime(String partition, Duration suspended) {}
