package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Partition options, PreemptMode and SelectTypeParameters are typed at load; a bad one is refused with file:line. */
class PartitionOptionsTest {

    private static PartitionConfig partition(String options) {
        return ConfigParser.parse(Path.of("slurm.conf"), "PartitionName=p " + options).partition("p").orElseThrow();
    }

    private static List<String> problems(String text) {
        return assertThrows(ConfigException.class, () -> ConfigParser.parse(Path.of("slurm.conf"), text)).problems();
    }

    @ParameterizedTest(name = "OverSubscribe={0}")
    @CsvSource({
            "NO, NO, 1, 1, 1, NO",
            "exclusive, EXCLUSIVE, 1, 1, 1, EXCLUSIVE",
            "YES, YES, 1, 4, 4, YES",
            "yes:2, YES, 1, 2, 2, YES:2",
            "FORCE, FORCE, 4, 4, 4, FORCE",
            "FORCE:32767, FORCE, 32767, 32767, 32767, FORCE:32767"})
    void overSubscribe_isParsedOnce_withSlurmsDefaultCountOfFour(String raw, OverSubscribe.Kind kind, int notAsked,
            int asked, int jobs, String printed) {
        OverSubscribe o = partition("OverSubscribe=" + raw).overSubscribe();
        assertEquals(kind, o.kind());
        assertEquals(jobs, o.jobs());
        assertEquals(notAsked, o.maxShare(false));
        assertEquals(asked, o.maxShare(true));
        assertEquals(printed, o.toString());
        assertEquals(kind == OverSubscribe.Kind.EXCLUSIVE, o.wholeNodes());
    }

    @Test
    void sharedIsOverSubscribesOlderName_andOverSubscribeWins() {
        assertEquals("FORCE:3", partition("Shared=FORCE:3").overSubscribe().toString());
        assertEquals("NO", partition("Shared=YES OverSubscribe=NO").overSubscribe().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "OverSubscribe=SOMETIMES|slurm.conf:1: OverSubscribe: 'SOMETIMES' is not one of NO, EXCLUSIVE, YES[:n], "
                    + "FORCE[:n]",
            "OverSubscribe=NO:2|slurm.conf:1: OverSubscribe: 'NO:2': only YES and FORCE take a job count",
            "OverSubscribe=YES:0|slurm.conf:1: OverSubscribe: 0 is out of range 1..32767",
            "OverSubscribe=FORCE:x|slurm.conf:1: OverSubscribe: 'x' is not a whole number",
            "State=OPEN|slurm.conf:1: State: 'OPEN' is not one of UP, DOWN, DRAIN, INACTIVE",
            "BackfillPolicy=LASTFIT|slurm.conf:1: BackfillPolicy: 'LASTFIT' is not one of FIRSTFIT, PREEMPT",
            "PreemptMode=REQUEUE,CANCEL|slurm.conf:1: PreemptMode: only one of OFF, CANCEL, REQUEUE, SUSPEND may be "
                    + "given (optionally with GANG or WITHIN), not [REQUEUE, CANCEL]",
            "PreemptMode=GANG,WITHIN|slurm.conf:1: PreemptMode: GANG cannot be combined with WITHIN",
            "PreemptMode=GANG,gang|slurm.conf:1: PreemptMode: 'gang' is given twice"})
    void badPartitionOptions_areRefusedWithFileLineAndKey(String option, String problem) {
        assertEquals(List.of(problem), problems("PartitionName=p " + option));
    }

    @Test
    void stateAndPreemptMode_areTyped() {
        assertEquals(PartitionState.INACTIVE, partition("State=inactive").state());
        assertEquals(new PreemptMode(PreemptAction.SUSPEND, true, false), partition("PreemptMode=gang,suspend").preemptMode());
        assertNull(partition("").preemptMode(), "no PreemptMode of its own: the cluster's applies");
        assertEquals(PartitionState.UP, partition("").state());
    }

    @Test
    void partitionStates_sayWhatTheyAllow() {
        assertEquals(List.of(true, false, true, false),
                List.of(PartitionState.UP, PartitionState.DOWN, PartitionState.DRAIN, PartitionState.INACTIVE).stream()
                        .map(PartitionState::startsJobs).toList());
        assertEquals(List.of(true, true, false, false),
                List.of(PartitionState.UP, PartitionState.DOWN, PartitionState.DRAIN, PartitionState.INACTIVE).stream()
                        .map(PartitionState::takesJobs).toList());
    }

    @ParameterizedTest(name = "SelectTypeParameters={0}")
    @CsvSource({"CR_CPU, CR_CPU, false", "cr_core_memory, CR_Core_Memory, true", "CR_Memory, CR_Memory, true",
            "CR_Socket, CR_Socket, false"})
    void selectTypeParameters_isTyped_andSaysWhetherMemoryIsTracked(String raw, String name, boolean memory) {
        SelectTypeParameters p = ConfigParser.parse(Path.of("slurm.conf"), "SelectTypeParameters=" + raw)
                .get(Keys.SELECT_TYPE_PARAMETERS);
        assertEquals(name, p.configName());
        assertEquals(memory, p.tracksMemory());
    }

    @Test
    void badSelectTypeParameters_isRefusedWithFileLine() {
        assertEquals(List.of("slurm.conf:1: SelectTypeParameters: 'CR_GPU' is not one of CR_CPU, CR_Core, CR_Socket, "
                + "CR_Memory, CR_CPU_Memory, CR_Core_Memory, CR_Socket_Memory"), problems("SelectTypeParameters=CR_GPU"));
    }

    @Test
    void clusterPreemptMode_badCombination_isRefusedWithFileLine() {
        assertEquals(List.of("slurm.conf:2: PreemptMode: only one of OFF, CANCEL, REQUEUE, SUSPEND may be given "
                + "(optionally with GANG or WITHIN), not [SUSPEND, REQUEUE]"), problems("ClusterName=c\nPreemptMode=SUSPEND,REQUEUE"));
    }
}
