package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.GetSharesResponse;
import dev.gantry.api.v1.ShareRow;
import dev.gantry.api.v1.UsageAmount;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** sshare's layouts (src/sshare/process.c, print_fields): default, -l with Gantry's columns, -p/-P, -n, -a/-A/-u. */
class SshareCommandTest {

    private static final GetSharesResponse SHARES = GetSharesResponse.newBuilder().setForm("linear")
            .addRows(ShareRow.newBuilder().setAccount("root").setDepth(0).setRawShares(1).setNormShares(1)
                    .setRawUsage(7200.9).setNormUsage(1).setEffectiveUsage(1).setFairshare(0.5))
            .addRows(ShareRow.newBuilder().setAccount("physics").setDepth(1).setRawShares(60).setNormShares(0.6)
                    .setRawUsage(7200).setNormUsage(1).setEffectiveUsage(1).setFairshare(0.3))
            .addRows(ShareRow.newBuilder().setAccount("physics").setUser("alice").setDepth(2).setRawShares(1)
                    .setNormShares(0.6).setRawUsage(7200).setNormUsage(1).setEffectiveUsage(1).setFairshare(0.166667)
                    .putTresRawUsage("cpu", 7200).putTresRawUsage("mem", 7200 * 4096)
                    .setUsageToHalve(UsageAmount.newBuilder().setCpuHours(12.5).setGbHours(400))
                    .setUsageToZero(UsageAmount.newBuilder().setCpuHours(30).setGpuHours(2.5).setGbHours(96)))
            .build();

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW).withShares(SHARES));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void defaultLayout() {
        Result r = cli.run("sshare");
        assertEquals(new Result(0, """
                Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare\s
                -------------------- ---------- ---------- ----------- ----------- ------------- ----------\s
                root                                     1    1.000000        7200      1.000000   0.500000\s
                 physics                                60    0.600000        7200      1.000000   0.300000\s
                  physics                 alice          1    0.600000        7200      1.000000   0.166667\s
                """, ""), r);
    }

    @Test
    void longLayout_addsNormUsageTresMinutesAndTheUsageThatWouldHalveOrZeroTheFactor() {
        Result r = cli.run("sshare", "-l", "-n");
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        String alice = lines.get(2);
        assertTrue(alice.startsWith("  physics                 alice          1    0.600000        7200    1.000000"
                + "      1.000000   0.166667 "), alice);
        assertTrue(alice.contains("               cpu=120,mem=491520 "), alice);
        assertTrue(alice.contains("         cpu=12.5h,mem=400.0GBh "), alice);
        assertTrue(alice.endsWith(" cpu=30.0h,gpu=2.5h,mem=96.0GBh "), alice);
        assertTrue(lines.get(0).endsWith(" ".repeat(30) + " " + " ".repeat(30) + " "), "accounts have no amounts");
        Result header = cli.run("sshare", "-l");
        assertTrue(header.out().startsWith("Account                    User  RawShares  NormShares    RawUsage   NormUsage"
                + "  EffectvUsage  FairShare                    GrpTRESMins                    TRESRunMins"
                + "                   UsageToHalve                    UsageToZero \n"), header.out());
    }

    @Test
    void neverWhenNoUsageReachesZero() {
        cli.controller().withShares(GetSharesResponse.newBuilder().addRows(SHARES.getRows(2).toBuilder()
                .setUsageToZero(UsageAmount.newBuilder().setNever(true))).build());
        assertTrue(cli.run("sshare", "-l", "-n").out().endsWith(" never \n"));
    }

    @Test
    void parsable() {
        assertEquals("Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare|\n"
                + "root||1|1.000000|7200|1.000000|0.500000|\n",
                String.join("\n", cli.run("sshare", "-p").out().lines().limit(2).toList()) + "\n");
        assertEquals("  physics|alice|1|0.600000|7200|1.000000|0.166667\n",
                cli.run("sshare", "-P", "-n").out().lines().skip(2).findFirst().orElseThrow() + "\n");
    }

    @Test
    void selectionGoesToTheController() {
        assertEquals(0, cli.run("sshare", "-a", "-A", "physics,bio", "-u", "alice").exitCode());
        GetSharesRequest req = cli.controller().last(GetSharesRequest.class);
        assertTrue(req.getAllUsers());
        assertEquals(List.of("physics", "bio"), req.getAccountsList());
        assertEquals(List.of("alice"), req.getUsersList());
        cli.run("sshare");
        GetSharesRequest plain = cli.controller().last(GetSharesRequest.class);
        assertEquals(false, plain.getAllUsers());
    }

    @Test
    void longValuesAreCutWithAPlus() {
        cli.controller().withShares(GetSharesResponse.newBuilder().addRows(ShareRow.newBuilder()
                .setAccount("a-very-long-account-name-indeed").setUser("someverylonguser")).build());
        String line = cli.run("sshare", "-n").out();
        assertTrue(line.startsWith("a-very-long-account+ someveryl+ "), line);
    }

    @Test
    void badInput() {
        Result r = cli.run("sshare", "--bogus");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("sshare: unrecognized option '--bogus'"), r.err());
        Result extra = cli.run("sshare", "extra");
        assertEquals(1, extra.exitCode());
        assertTrue(extra.err().startsWith("sshare: error: Unrecognized option: extra"), extra.err());
    }

    @Test
    void aFailingControllerIsReported() {
        cli.controller().failingWith(io.grpc.Status.UNAVAILABLE.withDescription("down"));
        Result r = cli.run("sshare");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("sshare: error: Problem with query: "), r.err());
    }
}
