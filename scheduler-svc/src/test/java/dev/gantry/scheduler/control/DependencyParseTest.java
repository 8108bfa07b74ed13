package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** --dependency syntax as https://slurm.schedmd.com/sbatch.html#OPT_dependency writes it. */
class DependencyParseTest {

    @ParameterizedTest(name = "--dependency={0} reads as {1}")
    @CsvSource(delimiter = '|', value = {
        "afterok:12                | afterok:12",
        "afterok:20:21,afterany:23 | afterok:20,afterok:21,afterany:23",
        "afterok:20:21?afterany:23 | afterok:20?afterok:21?afterany:23",
        "after:12+5                | after:12+5",
        "after:12+5:13             | after:12+5,after:13",
        "afternotok:7              | afternotok:7",
        "aftercorr:7               | aftercorr:7",
        "singleton                 | singleton",
        "SINGLETON,AfterOK:4       | singleton,afterok:4",
        "12                        | afterany:12",
        "12,13                     | afterany:12,afterany:13",
        "afterok:12_4              | afterok:12_4",
        "afterok:12_*              | afterok:12_*",
        "afterany:12_[1-3,7]       | afterany:12_1,afterany:12_2,afterany:12_3,afterany:12_7",
        "afterok:12_[0-4:2]:13     | afterok:12_0,afterok:12_2,afterok:12_4,afterok:13",
        "' afterok:12 '            | afterok:12",
    })
    void parse_documentedForms(String text, String normalized) {
        assertEquals(normalized, Dependency.parse(text).toString());
    }

    @Test
    void parse_questionMarkMeansAnyOf() {
        assertTrue(Dependency.parse("afterok:1?afterok:2").anyOf());
        assertFalse(Dependency.parse("afterok:1,afterok:2").anyOf());
    }

    @ParameterizedTest(name = "\"{0}\" is no dependency")
    @ValueSource(strings = {"", " ", "0"})
    void parse_emptyOrZeroClearsTheDependency(String text) {
        assertSame(Dependency.NONE, Dependency.parse(text));
        assertTrue(Dependency.parse(text).isEmpty());
    }

    @ParameterizedTest(name = "--dependency={0} is refused: {1}")
    @CsvSource(delimiter = '|', value = {
        "afterok                  | 'afterok' is neither type:job_id nor a job id",
        "afterwards:12            | unknown dependency type 'afterwards'",
        "expand:12                | unknown dependency type 'expand'",
        "afterok:                 | '' is not a job id",
        "afterok:abc              | 'abc' is not a job id",
        "afterok:0                | '0' is not a job id",
        "afterok:12_x             | '12_x' is not a job id",
        "afterok:12_              | '12_' is not a job id",
        "afterok:12_[3-1]         | '12_[3-1]': bad task list",
        "afterok:12+5             | +time is only for after: ('12+5')",
        "after:12+0               | '12+0': the delay must be a positive number of minutes",
        "after:12+x               | '12+x': the delay must be a positive number of minutes",
        "afterok:1,               | empty element",
        "afterok:1,,afterok:2     | empty element",
        "afterok:1,afterok:2?afterok:3 | use either ',' (all must hold) or '?' (any may hold), not both",
        "singletons               | 'singletons' is neither type:job_id nor a job id",
    })
    void parse_refusesWithSlurmsMessage(String text, String detail) {
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> Dependency.parse(text));
        assertEquals("Job dependency problem", e.getMessage());
        assertEquals("dependency", e.field());
        assertEquals("--dependency=" + text + ": " + detail, e.detail());
        assertEquals("dependency: Job dependency problem: " + e.detail(), e.describe());
    }
}
