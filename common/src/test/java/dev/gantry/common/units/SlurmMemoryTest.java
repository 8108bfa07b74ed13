package dev.gantry.common.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Memory sizes as sbatch --mem documents them: https://slurm.schedmd.com/sbatch.html#OPT_mem. */
class SlurmMemoryTest {

    @ParameterizedTest(name = "{0} = {1} MiB")
    @CsvSource({
        "0, 0",
        "1024, 1024",
        "500M, 500",
        "500m, 500",
        "1K, 1",
        "1024K, 1",
        "1025K, 2",
        "0K, 0",
        "2G, 2048",
        "2g, 2048",
        "1T, 1048576",
        "' 64G ', 65536",
        "999999999999999, 999999999999999",
        "8796093022207T, 9223372036853727232",
    })
    void parseMb_readsUnitsInPowersOf1024AndRoundsKibibytesUp(String text, long mib) {
        assertEquals(mib, SlurmMemory.parseMb(text));
    }

    @ParameterizedTest(name = "\"{0}\" fails saying \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "''                | invalid memory size",
        "G                 | invalid memory size",
        "-5                | invalid memory size",
        "1.5G              | invalid memory size",
        "10 G              | invalid memory size",
        "abc               | invalid memory size",
        "\u0661\u0660G    | invalid memory size",
        "10GB              | use K, M, G or T",
        "10MB              | use K, M, G or T",
        "10P               | invalid memory unit 'P'",
        "10B               | invalid memory unit 'B'",
        "1000000000000000  | invalid memory size",
        "999999999999999T  | too large",
        "8796093022208T    | too large",
    })
    void parseMb_refusesMalformedSizes(String text, String problem) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlurmMemory.parseMb(text));
        assertTrue(e.getMessage().contains(problem), () -> "message '" + e.getMessage() + "' should say " + problem);
    }

    @Test
    void parseMb_ofNullIsInvalid() {
        assertThrows(IllegalArgumentException.class, () -> SlurmMemory.parseMb(null));
    }
}
