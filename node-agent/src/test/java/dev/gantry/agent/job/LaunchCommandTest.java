package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchCommandTest {

    private static final LaunchCommand.Tools TOOLS = new LaunchCommand.Tools("/bin/sh", "/usr/bin/setpriv", "/usr/bin/taskset", "/usr/bin/setsid");
    private static final JobUser ALICE = new JobUser("alice", 1000, 100);

    @Test
    void everyStage_joinCgroups_becomeTheUser_bindCores_newSession_statusShell_inThatOrder() {
        List<String> argv = LaunchCommand.argv(TOOLS, List.of("/cg/a/cgroup.procs", "/cg/b/cgroup.procs"), Optional.of(ALICE),
                List.of(3, 1, 3), "/spool/job7/exit_status", "/w/out", "/w/err", "/spool/job7/slurm_script", List.of("x", "y"));

        assertEquals(List.of("/bin/sh", "-c", LaunchCommand.JOIN, "gantry-join", "2", "/cg/a/cgroup.procs", "/cg/b/cgroup.procs",
                "/usr/bin/setpriv", "--reuid=1000", "--regid=100", "--init-groups",
                "/usr/bin/taskset", "-c", "1,3",
                "/usr/bin/setsid",
                "/bin/sh", "-c", LaunchCommand.STEP, "gantry-step", "/spool/job7/exit_status", "/w/out", "/w/err",
                "/spool/job7/slurm_script", "x", "y"), argv);
    }

    @Test
    void noCgroups_noUserSwitch_noCores_leaveOnlyTheSessionAndTheStatusShell() {
        List<String> argv = LaunchCommand.argv(TOOLS, List.of(), Optional.empty(), List.of(), "/s", "/w/out", "", "/script", List.of());

        assertEquals(List.of("/usr/bin/setsid", "/bin/sh", "-c", LaunchCommand.STEP, "gantry-step", "/s", "/w/out", "", "/script"), argv);
    }
}
