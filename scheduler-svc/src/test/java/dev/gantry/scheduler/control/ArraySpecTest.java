package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --array as sbatch and job_array.html document it, with MaxArraySize's default 1001. */
class ArraySpecTest {

    private static ArraySpec parse(String text) {
        return ArraySpec.parse(text, 1001, 1001);
    }

    @ParameterizedTest(name = "--array={0} has tasks {1}, at most {2} running")
    @CsvSource(delimiter = '|', value = {
        "0-3         | 0-3        | 0",
        "1,3,5-7     | 1,3,5-7    | 0",
        "0-15:4      | 0,4,8,12   | 0",
        "1-7:2,20    | 1,3,5,7,20 | 0",
        "0-99%10     | 0-99       | 10",
        "7           | 7          | 0",
        "5,5,1-3     | 1-3,5      | 0",
        "1,,2        | 1-2        | 0",
        "[1-3]       | 1-3        | 0",
        "0-1000      | 0-1000     | 0",
        "0-4%0       | 0-4        | 0",
    })
    void parse_documentedForms(String text, String ids, int maxRunning) {
        ArraySpec a = parse(text);
        assertEquals(ids, ArraySpec.formatIds(a.taskIds()));
        assertEquals(maxRunning, a.maxRunning());
    }

    @ParameterizedTest(name = "--array={0} is refused: {1}")
    @CsvSource(delimiter = '|', value = {
        "''         | no task ids",
        "%5         | no task ids",
        "abc        | 'abc' is not an index, a range or a stepped range",
        "-1         | '-1' is not an index, a range or a stepped range",
        "1-         | '1-' is not an index, a range or a stepped range",
        "5-2        | '5-2': the range ends before it starts",
        "0-10:0     | '0-10:0': the step must be positive",
        "0-10:x     | '0-10:x' is not an index, a range or a stepped range",
        "1-2-3      | '1-2-3' is not an index, a range or a stepped range",
        "1.5        | '1.5' is not an index, a range or a stepped range",
        "0-1001     | task id 1001 is not below MaxArraySize=1001",
        "1001       | task id 1001 is not below MaxArraySize=1001",
        "1-3%x      | '%x' is not a number of tasks",
        "1-3%       | '%' is not a number of tasks",
        "1-3%-2     | '%-2' is not a number of tasks",
    })
    void parse_refusesWithSlurmsMessage_andNamesTheLimit(String text, String detail) {
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> parse(text));
        assertEquals("Invalid job array specification", e.getMessage());
        assertEquals("array", e.field());
        assertEquals("--array=" + text + ": " + detail, e.detail());
    }

    @Test
    void parse_maxArraySizeZeroDisablesArrays() {
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> ArraySpec.parse("1", 0, 0));
        assertEquals("--array=1: job arrays are disabled (MaxArraySize=0)", e.detail());
    }

    @Test
    void parse_maxArrayTasksCapsTheCountNotTheIds() {
        assertEquals(3, ArraySpec.parse("900-902", 1001, 3).count());
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> ArraySpec.parse("0-3", 1001, 3));
        assertEquals("--array=0-3: 4 tasks exceed max_array_tasks=3", e.detail());
    }

    @Test
    void parse_aLargerMaxArraySizeAllowsHigherIds() {
        assertEquals(5000, ArraySpec.parse("5000", 10_001, 10_001).min());
    }

    @ParameterizedTest(name = "--array={0}: count {1}, min {2}, max {3}, step {4}")
    @CsvSource({
        "0-15:4, 4, 0, 12, 4",
        "1-10, 10, 1, 10, 1",
        "1;3;4, 3, 1, 4, 1",
        "7, 1, 7, 7, 1",
    })
    void environmentValues(String text, int count, int min, int max, int step) {
        ArraySpec a = parse(text.replace(';', ','));
        assertEquals(count, a.count());
        assertEquals(min, a.min());
        assertEquals(max, a.max());
        assertEquals(step, a.step());
    }

    @Test
    void pendingJobId_asSqueueShowsTheRemainder() {
        assertEquals("123_[5-99%10]", ArraySpec.pendingJobId(123, IntStream.rangeClosed(5, 99).toArray(), 10));
        assertEquals("123_[5-7,9]", ArraySpec.pendingJobId(123, new int[] {5, 6, 7, 9}, 0));
        assertEquals("123_7", ArraySpec.pendingJobId(123, new int[] {7}, 0));
        assertEquals("123_[7%2]", ArraySpec.pendingJobId(123, new int[] {7}, 2));
    }

    @Test
    void toString_writesTheRequestBack() {
        assertEquals("0-99%10", parse("0-99%10").toString());
        assertEquals("0,4,8,12", parse("0-15:4").toString());
    }

    @Test
    void valueSemantics() {
        assertEquals(parse("1-3"), parse("1,2,3"));
        assertEquals(parse("1-3").hashCode(), parse("1,2,3").hashCode());
        int[] ids = parse("1-3").taskIds();
        ids[0] = 99;
        assertArrayEquals(new int[] {1, 2, 3}, parse("1-3").taskIds());
    }
}
