package dev.gantry.cli.command;

import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.GetSharesResponse;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.PriorityInfos;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.sshare.ShareReport;
import java.util.List;

/**
 * sshare: fair-share usage, shares and factor per account and user (https://slurm.schedmd.com/sshare.html).
 * -a every user, -A/-u select, -l the long layout (with Gantry's UsageToHalve and UsageToZero columns), -n no
 * header, -p/-P parsable.
 */
public final class SshareCommand extends SlurmCommand {

    public SshareCommand(CliContext context) {
        super(context, "sshare", LetterH.HELP);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.flag('a', "all"),
                OptionSpec.withValue('A', "accounts"),
                OptionSpec.withValue('u', "users"),
                OptionSpec.flag('l', "long"),
                OptionSpec.flag('n', "noheader"),
                OptionSpec.flag('p', "parsable"),
                OptionSpec.flag('P', "parsable2"));
    }

    @Override
    int execute(ParsedArguments arguments) {
        refuseOperands(arguments.operands());
        GetSharesRequest request = GetSharesRequest.newBuilder()
                .addAllAccounts(names(arguments.last("accounts")))
                .addAllUsers(names(arguments.last("users")))
                .setAllUsers(arguments.has("all"))
                .build();
        GetSharesResponse response = ask(session -> session.stub().getShares(request),
                failure -> error("Problem with query: " + failure));
        int parsable = arguments.has("parsable2") ? 2 : arguments.has("parsable") ? 1 : 0;
        ShareReport report = new ShareReport(arguments.has("long") ? ShareReport.LONG : ShareReport.DEFAULT,
                !arguments.has("noheader"), parsable);
        report.lines(PriorityInfos.shares(response.getRowsList())).forEach(context.out()::println);
        return 0;
    }

    @Override
    String usage() {
        return "Usage: sshare [-A accounts] [-u users] [-a] [-l] [-n] [-p] [-P]\n";
    }

    @Override
    String help() {
        return """
                Usage: sshare [OPTION]
                  -a or --all            list all users
                  -A or --accounts=      display specific accounts (comma separated list)
                  -l or --long           include normalized usage, TRES minutes, and the usage that would
                                         halve (UsageToHalve) or zero (UsageToZero) each user's factor
                  -n or --noheader       omit header from output
                  -p or --parsable       '|' delimited output with a trailing '|'
                  -P or --parsable2      '|' delimited output without a trailing '|'
                  -u or --users=         display specific users (comma separated list)

                Help options:
                  -h or --help           this help text
                      --usage            display a brief summary of sshare options

                Other options:
                  -V or --version        output version information and exit
                """;
    }
}
