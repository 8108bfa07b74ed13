package dev.gantry.scheduler.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.SlurmctldParameters.WatchLimits;
import org.junit.jupiter.api.Test;

class StreamQuotaTest {

    @Test
    void aUserMayHoldPerUserStreams_andTheControllerTotal() {
        StreamQuota q = new StreamQuota(new WatchLimits(2, 3, 0));
        q.open("alice");
        q.open("alice");

        var perUser = assertInstanceOf(StreamQuota.Refused.class, q.open("alice"));
        assertEquals(StreamQuota.Cap.PER_USER, perUser.cap());
        assertTrue(perUser.message().contains("watch_max_per_user=2"), perUser.message());

        assertInstanceOf(StreamQuota.Opened.class, q.open("bob"));
        var total = assertInstanceOf(StreamQuota.Refused.class, q.open("carol"));
        assertEquals(StreamQuota.Cap.TOTAL, total.cap());
        assertTrue(total.message().contains("watch_max=3"), total.message());
    }

    @Test
    void aClosedStream_givesItsPlaceBack() {
        StreamQuota q = new StreamQuota(new WatchLimits(1, 1, 0));
        q.open("alice");
        q.close("alice");

        assertInstanceOf(StreamQuota.Opened.class, q.open("bob"));
        assertEquals(0, q.openBy("alice"));
        assertEquals(1, q.total());
        assertThrows(IllegalStateException.class, () -> q.close("alice"));
    }
}
