package dev.gantry.cli.command;

import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.ClusterInfos;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.PartitionInfo;
import dev.gantry.cli.sinfo.SinfoReport;
import java.util.List;
import java.util.Set;

/**
 * sinfo: partitions and nodes (https://slurm.schedmd.com/sinfo.html), in Slurm's default partition-oriented
 * report or, with -N, its node-oriented one.
 */
public final class SinfoCommand extends SlurmCommand {

    public SinfoCommand(CliContext context) {
        super(context, "sinfo", LetterH.NOHEADER);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.flag('N', "Node"),
                OptionSpec.withValue('p', "partition"));
    }

    @Override
    int execute(ParsedArguments arguments) {
        refuseOperands(arguments.operands());
        Set<String> selected = names(arguments.last("partition"));
        Cluster cluster = ask(session -> new Cluster(ClusterInfos.partitions(
                session.stub().listPartitions(ListPartitionsRequest.getDefaultInstance()).getPartitionsList()),
                ClusterInfos.nodes(session.stub().listNodes(ListNodesRequest.getDefaultInstance()).getNodesList())),
                failure -> fail("slurm_load_partitions: " + failure));
        new SinfoReport(!arguments.has("noheader"), arguments.has("Node"), selected)
                .lines(cluster.partitions(), cluster.nodes()).forEach(context.out()::println);
        return 0;
    }

    /** What sinfo reports on. */
    private record Cluster(List<PartitionInfo> partitions, List<NodeInfo> nodes) {}

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
