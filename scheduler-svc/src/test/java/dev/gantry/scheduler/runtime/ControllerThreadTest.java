package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The controller's state is written on the controller thread only: ClusterState checks it. */
class ControllerThreadTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    @Test
    void aWriteFromAnotherThread_isRefused_namingThatThread() {
        var node = h.controller.state.node("n1");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> h.controller.state.putNode(node));
        assertTrue(e.getMessage().contains(Thread.currentThread().getName()), e.getMessage());
        assertTrue(e.getMessage().contains("\"controller\""), e.getMessage());
    }

    @Test
    void onTheControllerThread_writesGoThrough() {
        h.controller.run(() -> h.controller.state.putNode(h.controller.state.node("n1").seenAt(h.now.get()))).join();
        assertEquals(h.now.get(), h.controller.call(() -> h.controller.state.node("n1").lastSeen()).join());
    }
}
