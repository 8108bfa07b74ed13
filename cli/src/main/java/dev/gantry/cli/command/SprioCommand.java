package dev.gantry.cli.command;

import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetPrioritiesResponse;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.PriorityInfos;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.model.PriorityWeightsInfo;
import dev.gantry.cli.sprio.PriorityReport;
import java.util.ArrayList;
import java.util.List;

/**
 * sprio: each pending job's priority, factor by factor (https://slurm.schedmd.com/sprio.html). -j, -u, -p select
 * jobs; -l the long layout, -n normalized factors, -w the configured weights, -o a format, -h no header.
 */
public final class SprioCommand extends SlurmCommand {

    public SprioCommand(CliContext context) {
        super(context, "sprio", LetterH.NOHEADER);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.withOptionalValue('j', "jobs"),
                OptionSpec.flag('l', "long"),
                OptionSpec.flag('n', "norm"),
                OptionSpec.withValue('o', "format"),
                OptionSpec.withValue('u', "user", "users"),
                OptionSpec.withValue('p', "partition", "partitions"),
                OptionSpec.flag('w', "weights"));
    }

    @Override
    int execute(ParsedArguments arguments) {
        List<String> operands = new ArrayList<>(arguments.operands());
        String jobList = arguments.last("jobs");
        if (arguments.has("jobs") && jobList == null && !operands.isEmpty()) {
            jobList = operands.remove(0);
        }
        refuseOperands(operands);
        GetPrioritiesRequest.Builder request = GetPrioritiesRequest.newBuilder();
        if (jobList != null) {
            for (String id : jobList.split(",")) {
                try {
                    request.addJobIds(Long.parseUnsignedLong(id.trim()));
                } catch (NumberFormatException e) {
                    return error("Invalid job id: " + id);
                }
            }
        }
        request.addAllUsers(names(arguments.last("user"))).addAllPartitions(names(arguments.last("partition")));
        GetPrioritiesResponse response = ask(session -> session.stub().getPriorities(request.build()),
                failure -> fail("Couldn't get priority factors from controller: " + failure));
        PriorityWeightsInfo weights = PriorityInfos.weights(response.getWeights());
        boolean normalized = arguments.has("norm");
        String format = arguments.has("format") ? arguments.last("format")
                : context.environment().containsKey("SPRIO_FORMAT") ? context.environment().get("SPRIO_FORMAT")
                : arguments.has("long") ? (normalized ? PriorityReport.LONG_NORMALIZED : PriorityReport.LONG)
                : PriorityReport.defaultFormat(weights, arguments.has("user"), normalized);
        PriorityReport report;
        try {
            report = PriorityReport.parse(format, !arguments.has("noheader"));
        } catch (IllegalArgumentException e) {
            return error(e.getMessage());
        }
        boolean selected = jobList != null || arguments.has("user") || arguments.has("partition");
        if (!arguments.has("weights") && selected && response.getPrioritiesCount() == 0) {
            context.out().println("Unable to find jobs matching user/id(s) specified");
            return 0;
        }
        report.lines(PriorityInfos.priorities(response.getPrioritiesList()), weights, arguments.has("weights"))
                .forEach(context.out()::println);
        return 0;
    }

    @Override
    String usage() {
        return "Usage: sprio [-j jid[s]] [-u user_name[s]] [-p partition[s]] [-o format] [--usage] [-hlnw]\n";
    }

    @Override
    String help() {
        return """
                Usage: sprio [OPTIONS]
                  -h, --noheader                  no headers on output
                  -j, --jobs                      comma separated list of jobs to view, default is all
                  -l, --long                      long report
                  -n, --norm                      display normalized values
                  -o, --format=format             format specification
                  -p, --partition=partition_name  comma separated list of partitions to view
                  -u, --user=user_name            comma separated list of users to view
                  -w, --weights                   show the weights for each priority factor

                Help options:
                      --help                      show this help message
                      --usage                     display a brief summary of sprio options

                Other options:
                  -V, --version                   output version information and exit
                """;
    }
}
