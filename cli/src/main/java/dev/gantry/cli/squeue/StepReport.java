package dev.gantry.cli.squeue;

import dev.gantry.cli.model.StepInfo;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code squeue -s}: one line per job step in Slurm's default step format {@code "%.15i %.8j %.9P %.8u %.9M %N"}
 * (STEPID NAME PARTITION USER TIME NODELIST; https://slurm.schedmd.com/squeue.html), fields right-aligned and
 * cut to their width, the node list last and whole. Steps come in the controller's order (job id, then the batch
 * step, then step ids). Pure.
 */
public final class StepReport {

    static final String HEADER = line("STEPID", "NAME", "PARTITION", "USER", "TIME", "NODELIST");

    private StepReport() {}

    public static List<String> lines(List<StepInfo> steps, Instant now, boolean header) {
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(HEADER);
        }
        for (StepInfo s : steps) {
            long seconds = timeUsed(s, now);
            out.add(line(s.jobId() + "." + s.stepId(), s.name(), s.partition(), s.user(),
                    SlurmClock.squeueDuration(seconds), Hostlist.compress(s.nodes())));
        }
        return out;
    }

    /**
     * The controller's run time of the step (time its job spent suspended left out); from a controller that does not
     * send it, the time since the step started.
     */
    private static long timeUsed(StepInfo s, Instant now) {
        if (s.timeUsedSeconds() != null) {
            return s.timeUsedSeconds();
        }
        Instant start = s.start();
        return start == null ? 0 : Math.max(0, Duration.between(start, now).getSeconds());
    }

    private static String line(String id, String name, String partition, String user, String time, String nodes) {
        return right(id, 15) + " " + right(name, 8) + " " + right(partition, 9) + " " + right(user, 8) + " " + right(time, 9) + " " + nodes;
    }

    private static String right(String value, int width) {
        String v = value.length() > width ? value.substring(0, width) : value;
        return " ".repeat(width - v.length()) + v;
    }
}
