package dev.gantry.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventOrderTest {

    private final EventOrder order = new EventOrder("e1", 10);
    private final List<Long> ran = new ArrayList<>();

    @Test
    void nextEventOfTheSameEpoch_runsItsChangeAndMovesTheRevisionOn() {
        order.apply("e1", 11, () -> ran.add(11L));
        order.apply("e1", 15, () -> ran.add(15L)); // revisions may skip: events the replica does not see

        assertEquals(List.of(11L, 15L), ran);
        assertEquals(15, order.revision());
        assertEquals("e1", order.epoch());
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            e2 | 11 | event of epoch e2 applied to a replica of epoch e1
            e1 | 10 | event revision 10 is not after replica revision 10
            e1 |  9 | event revision 9 is not after replica revision 10
            """)
    void eventOutOfOrder_isRefusedAndChangesNothing(String epoch, long revision, String message) {
        var refused = assertThrows(IllegalArgumentException.class, () -> order.apply(epoch, revision, () -> ran.add(revision)));

        assertEquals(message, refused.getMessage());
        assertEquals(List.of(), ran);
        assertEquals(10, order.revision());
    }

    @Test
    void changeThatFails_leavesTheRevisionWhereItWas() {
        assertThrows(IllegalStateException.class, () -> order.apply("e1", 11, () -> {
            throw new IllegalStateException("boom");
        }));

        assertEquals(10, order.revision());
    }
}
