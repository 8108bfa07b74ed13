package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every problem is reported as exactly {@code file:line: key: what is wrong}. */
class ConfigProblemsTest {

    private static final Path FILE = Path.of("conf/gantry.conf");

    static List<String> problems(String text) {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(FILE, text));
        assertEquals(String.join("\n", e.problems()), e.getMessage());
        return e.problems();
    }

    static Stream<Arguments> singleProblems() {
        return Stream.of(
                problem("unknown global key", "ClusterName=c\nColour=blue",
                        "conf/gantry.conf:2: Colour: unknown key"),
                problem("unknown node key", "NodeName=n1 Colour=blue",
                        "conf/gantry.conf:1: Colour: unknown key"),
                problem("unknown partition key", "PartitionName=p Colour=blue",
                        "conf/gantry.conf:1: Colour: unknown key"),
                problem("malformed global number", "KillWait=soon",
                        "conf/gantry.conf:1: KillWait: 'soon' is not a whole number of seconds"),
                problem("global number out of range", "KillWait=70000",
                        "conf/gantry.conf:1: KillWait: 70000 seconds is out of range 0..65533"),
                problem("malformed global word", "SelectType=select/magic",
                        "conf/gantry.conf:1: SelectType: 'select/magic' is not one of select/cons_tres, select/linear, select/cons_res"),
                problem("malformed yes/no", "PartitionName=p Default=maybe",
                        "conf/gantry.conf:1: Default: 'maybe' is not YES or NO"),
                problem("malformed MaxTime", "PartitionName=p MaxTime=1h",
                        "conf/gantry.conf:1: MaxTime: Invalid time specification '1h'"),
                problem("malformed MaxNodes", "PartitionName=p MaxNodes=lots",
                        "conf/gantry.conf:1: MaxNodes: 'lots' is not a whole number"),
                problem("malformed partition State", "PartitionName=p State=OPEN",
                        "conf/gantry.conf:1: State: 'OPEN' is not one of UP, DOWN, DRAIN, INACTIVE"),
                problem("malformed BackfillPolicy", "PartitionName=p BackfillPolicy=BESTFIT",
                        "conf/gantry.conf:1: BackfillPolicy: 'BESTFIT' is not one of FIRSTFIT, PREEMPT"),
                problem("malformed node CPUs", "NodeName=n1 CPUs=eight",
                        "conf/gantry.conf:1: CPUs: 'eight' is not a whole number"),
                problem("zero node CoresPerSocket", "NodeName=n1 CoresPerSocket=0",
                        "conf/gantry.conf:1: CoresPerSocket: 0 is out of range 1..65535"),
                problem("malformed RealMemory", "NodeName=n1 RealMemory=lots",
                        "conf/gantry.conf:1: RealMemory: invalid memory size 'lots'"),
                problem("malformed node State", "NodeName=n1 State=HAPPY",
                        "conf/gantry.conf:1: State: 'HAPPY' is not one of UNKNOWN, IDLE, DOWN, DRAIN, FUTURE"),
                problem("malformed host list", "NodeName=n[1-3",
                        "conf/gantry.conf:1: NodeName: unbalanced '[' in 'n[1-3'"),
                problem("empty node name", "NodeName=",
                        "conf/gantry.conf:1: NodeName: no node name given"),
                problem("wrong number of ports", "NodeName=n[1-3] Port=[7001-7002]",
                        "conf/gantry.conf:1: Port: 2 ports for 3 nodes"),
                problem("unknown node in Nodes=", "NodeName=n[1-2]\nPartitionName=p Nodes=n[1-3]",
                        "conf/gantry.conf:2: Nodes: unknown node n3 (define it on a NodeName= line first)"),
                problem("node used before it is defined", "PartitionName=p Nodes=n1\nNodeName=n1",
                        "conf/gantry.conf:1: Nodes: unknown node n1 (define it on a NodeName= line first)"),
                problem("duplicate node", "NodeName=n[1-2]\n\nNodeName=n2",
                        "conf/gantry.conf:3: NodeName: n2 is already defined on line 1"),
                problem("duplicate partition", "PartitionName=p\nPartitionName=p",
                        "conf/gantry.conf:2: PartitionName: p is already defined"),
                problem("invalid partition name", "PartitionName=a/b",
                        "conf/gantry.conf:1: PartitionName: 'a/b' is not a valid partition name"),
                problem("two defaults", "PartitionName=a Default=YES\nPartitionName=b Default=YES",
                        "conf/gantry.conf:2: Default: partition a (line 1) is already the default"),
                problem("DefaultTime longer than MaxTime", "PartitionName=p MaxTime=30 DefaultTime=31",
                        "conf/gantry.conf:1: DefaultTime: is longer than MaxTime"),
                problem("UNLIMITED DefaultTime under a MaxTime", "PartitionName=p MaxTime=30 DefaultTime=UNLIMITED",
                        "conf/gantry.conf:1: DefaultTime: is longer than MaxTime"),
                problem("DefaultTime from DEFAULT longer than MaxTime",
                        "PartitionName=DEFAULT DefaultTime=2:00:00\nPartitionName=p MaxTime=60",
                        "conf/gantry.conf:2: DefaultTime: is longer than MaxTime"),
                problem("MinNodes above MaxNodes", "PartitionName=p MinNodes=3 MaxNodes=2",
                        "conf/gantry.conf:1: MinNodes: is larger than MaxNodes"),
                problem("global key set twice", "KillWait=10\n# again\nkillwait=20",
                        "conf/gantry.conf:3: killwait: set twice (first on line 1)"),
                problem("key twice on one line", "NodeName=n1 CPUs=2 CPUs=4",
                        "conf/gantry.conf:1: CPUs: given twice on one line"),
                problem("unterminated quote", "ClusterName=c\nProlog=\"/bin/true # oops",
                        "conf/gantry.conf:2: Prolog: unterminated quoted value"),
                problem("missing '='", "ClusterName tiny",
                        "conf/gantry.conf:1: ClusterName: expected Key=Value"),
                problem("missing '=' after other pairs", "NodeName=n1 CPUs=2 Weird",
                        "conf/gantry.conf:1: Weird: expected Key=Value"),
                problem("bad value in NodeName=DEFAULT, reported where used", "NodeName=DEFAULT CPUs=x\n\nNodeName=n1",
                        "conf/gantry.conf:3: CPUs: 'x' is not a whole number"),
                problem("bad PreemptMode", "PreemptMode=SOMETIMES",
                        "conf/gantry.conf:1: PreemptMode: 'SOMETIMES' is not one of OFF, CANCEL, REQUEUE, SUSPEND, GANG, WITHIN"),
                problem("bad OverSubscribe count", "PartitionName=p OverSubscribe=YES:0",
                        "conf/gantry.conf:1: OverSubscribe: 0 is out of range 1..32767"));
    }

    private static Arguments problem(String name, String text, String message) {
        return Arguments.of(name, text, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("singleProblems")
    void eachProblem_isReportedExactlyOnceAsFileLineKeyWhat(String name, String text, String message) {
        assertEquals(List.of(message), problems(text));
    }

    @Test
    void everyProblemInAFileIsReported_inLineOrder() {
        assertEquals(List.of(
                "conf/gantry.conf:1: Bogus: unknown key",
                "conf/gantry.conf:2: KillWait: 'x' is not a whole number of seconds",
                "conf/gantry.conf:3: NodeName: unbalanced '[' in 'n[1'",
                "conf/gantry.conf:4: Nodes: unknown node n9 (define it on a NodeName= line first)",
                "conf/gantry.conf:4: MaxTime: Invalid time specification 'soon'",
                "conf/gantry.conf:5: Shape: unknown key"), problems("""
                Bogus=1
                KillWait=x
                NodeName=n[1
                PartitionName=p Nodes=n9 MaxTime=soon
                PartitionName=q Shape=round
                """));
    }

    @Test
    void lineNumbers_countCommentsAndBlankLines_andAContinuedLineReportsWhereItStarts() {
        // As Slurm's parser: a logical line joined by trailing backslashes is numbered by its first line.
        assertEquals(List.of(
                "conf/gantry.conf:3: Bad1: unknown key",
                "conf/gantry.conf:4: Bad2: unknown key",
                "conf/gantry.conf:6: Bad3: unknown key",
                "conf/gantry.conf:10: Bad4: unknown key"), problems("""
                # comment

                Bad1=1 # trailing comment
                NodeName=n1 \\
                    Bad2=2
                PartitionName=p \\
                    Nodes=n1 \\
                    Bad3=3
                # comment
                Bad4=4"""));
    }

    @Test
    void aContinuedLastLineWithoutNewline_isStillRead() {
        assertEquals(List.of("conf/gantry.conf:2: Bad: unknown key"), problems("ClusterName=c\nKillWait=1 \\\nBad=2 \\"));
    }
}
