package dev.gantry.cli.sbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BatchScriptTest {

    static Stream<Arguments> scripts() {
        return Stream.of(
                Arguments.of("directives before commands are read",
                        "#!/bin/sh\n#SBATCH -N 2\n#SBATCH --job-name=build\nsrun hostname\n",
                        List.of("-N", "2", "--job-name=build")),
                Arguments.of("blank lines and comments do not stop reading",
                        "#!/bin/sh\n\n# a comment\n   # indented comment\n#SBATCH -n 4\n",
                        List.of("-n", "4")),
                Arguments.of("the first command stops reading",
                        "#!/bin/sh\necho hi\n#SBATCH -N 9\n",
                        List.of()),
                Arguments.of("an indented command stops reading too",
                        "#!/bin/sh\n  module load x\n#SBATCH -N 9\n",
                        List.of()),
                Arguments.of("several options on one line",
                        "#!/bin/sh\n#SBATCH -N 2 -n 8 --mem=4G\n",
                        List.of("-N", "2", "-n", "8", "--mem=4G")),
                Arguments.of("quotes group, and are removed",
                        "#!/bin/sh\n#SBATCH --job-name=\"my job\" -o 'out %j.txt'\n",
                        List.of("--job-name=my job", "-o", "out %j.txt")),
                Arguments.of("an unquoted # starts a comment",
                        "#!/bin/sh\n#SBATCH -N 2 # two nodes\n#SBATCH -n 3#tasks\n",
                        List.of("-N", "2", "-n", "3")),
                Arguments.of("a quoted # is kept",
                        "#!/bin/sh\n#SBATCH -J \"a#b\"\n",
                        List.of("-J", "a#b")),
                Arguments.of("a backslash escapes",
                        "#!/bin/sh\n#SBATCH -J a\\ b\n",
                        List.of("-J", "a b")),
                Arguments.of("#SBATCH is matched as a prefix, as in Slurm; #SBAT is a comment",
                        "#!/bin/sh\n#SBATCHED not a directive?\n#SBAT -N 3\n#SBATCH -N 1\n",
                        List.of("ED", "not", "a", "directive?", "-N", "1")),
                Arguments.of("no directives", "#!/bin/bash\nexit 0\n", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void readsDirectivesAsSbatchDoes(String name, String script, List<String> expected) {
        assertEquals(expected, new BatchScript(script).directiveArguments());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("", List.of("Batch script is empty!")),
                Arguments.of("  \n\t\n", List.of("Batch script contains only whitespace!")),
                Arguments.of("echo hi\n", List.of("This does not look like a batch script.  The first",
                        "line must start with #! followed by the path to an interpreter.",
                        "For instance: #!/bin/sh")),
                Arguments.of("#!/bin/sh\r\necho hi\r\n", List.of("Batch script contains DOS line breaks (\\r\\n)",
                        "instead of expected UNIX line breaks (\\n).")),
                Arguments.of("#!/bin/sh\necho hi\n", List.of()));
    }

    @ParameterizedTest(name = "problems of {0}")
    @MethodSource("refused")
    void refusesWhatSbatchRefuses(String script, List<String> problems) {
        assertEquals(problems, new BatchScript(script).problems());
    }

    @Test
    void wrapBuildsSbatchsShellScript() {
        assertEquals("#!/bin/sh\n# This script was created by sbatch --wrap.\n\nsleep 10\n",
                BatchScript.wrap("sleep 10").text());
    }
}
