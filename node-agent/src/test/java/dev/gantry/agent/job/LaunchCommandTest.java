package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchCommandTest {

    private static final LaunchCommand.Tools TOOLS = new LaunchCommand.Tools("/bin/sh", "/usr/bin/setpriv", "/usr/bin/taskset", "/usr/bin/setsid");
    private static final JobUser ALICE = new JobUser("alice", 1000, 100);

    @Test
    void everyStage_becomeTheUser_newSession_statusShell_inThatOrder() {
        List<String> argv = LaunchCommand.argv(TOOLS, Optional.of(ALICE), "/spool/job7/exit_status", "/w/out", "/w/err",
                "/spool/job7/slurm_script", List.of("x", "y"));

        assertEquals(List.of("/usr/bin/setpriv", "--reuid=1000", "--regid=100", "--init-groups",
                "/usr/bin/setsid",
                "/bin/sh", "-c", LaunchCommand.STEP, "gantry-step", "/spool/job7/exit_status", "/w/out", "/w/err",
                "/spool/job7/slurm_script", "x", "y"), argv);
    }

    @Test
    void noUserSwitch_leavesOnlyTheSessionAndTheStatusShell() {
        List<String> argv = LaunchCommand.argv(TOOLS, Optional.empty(), "/s", "/w/out", "", "/script", List.of());

        assertEquals(List.of("/usr/bin/setsid", "/bin/sh", "-c", LaunchCommand.STEP, "gantry-step", "/s", "/w/out", "", "/script"), argv);
    }

    @Test
    void statusShell_runsNothingUntilTheAgentSaysGo() {
        int beforeRead = LaunchCommand.STEP.indexOf("read -r go");
        int firstRedirect = LaunchCommand.STEP.indexOf("exec >>");
        int script = LaunchCommand.STEP.indexOf("\"$@\"");

        assertTrue(beforeRead > 0 && beforeRead < firstRedirect && firstRedirect < script, LaunchCommand.STEP);
        assertTrue(LaunchCommand.STEP.contains("exit 125"), "no go, no script");
        assertEquals("go\n", LaunchCommand.GO);
    }
}
