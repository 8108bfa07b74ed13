package dev.gantry.cli.command;

import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.controller.ControllerNotFoundException;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.sinfo.SinfoReport;
import io.grpc.StatusRuntimeException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * sinfo: partitions and nodes (https://slurm.schedmd.com/sinfo.html), in Slurm's default partition-oriented
 * report or, with -N, its node-oriented one.
 */
public final class SinfoCommand extends SlurmCommand {

    public SinfoCommand(CliContext context) {
        super(context, "sinfo");
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.flag('h', "noheader"),
                OptionSpec.flag('N', "Node"),
                OptionSpec.withValue('p', "partition"));
    }

    @Override
    boolean hIsHelp() {
        return false;
    }

    @Override
    int execute(ParsedArguments arguments) {
        if (!arguments.operands().isEmpty()) {
            error("Unrecognized option: " + arguments.operands().get(0));
            return tryHelp();
        }
        Set<String> selected = new LinkedHashSet<>();
        String partitions = arguments.last("partition");
        if (partitions != null) {
            for (String p : partitions.split(",")) {
                if (!p.isBlank()) {
                    selected.add(p.trim());
                }
            }
        }
        List<Partition> parts;
        List<Node> nodes;
        try (ControllerSession session = ControllerSession.open(context)) {
            parts = session.stub().listPartitions(ListPartitionsRequest.getDefaultInstance()).getPartitionsList();
            nodes = session.stub().listNodes(ListNodesRequest.getDefaultInstance()).getNodesList();
        } catch (ControllerNotFoundException e) {
            return error(e.getMessage());
        } catch (StatusRuntimeException e) {
            context.err().println("slurm_load_partitions: " + ControllerFailure.describe(e));
            return 1;
        }
        new SinfoReport(!arguments.has("noheader"), arguments.has("Node"), selected)
                .lines(parts, nodes).forEach(context.out()::println);
        return 0;
    }

    @Override
    String usage() {
        return "Usage: sinfo [-hN] [-p partition] [--help] [--usage] [--version]\n";
    }

    @Override
    String help() {
        return """
                Usage: sinfo [OPTIONS]
                  -h, --noheader             no headers on output
                  -N, --Node                 Node-centric format
                  -p, --partition=PARTITION  report on specific partition(s), comma separated

                Help options:
                  --help                     show this help message
                  --usage                    display brief usage message

                Other options:
                  -V, --version              output version information and exit
                """;
    }
}
