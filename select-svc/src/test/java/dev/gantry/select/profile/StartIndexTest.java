package dev.gantry.select.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A {@link StartIndex} search hands out exactly the nodes a scan of every node would, in ascending order of their
 * earliest start, however the profile changed since the index was made and however far earlier searches read. Random
 * profiles (1–40 nodes of 4–64 CPUs, running jobs ending on a 60 s grid) with reservations made between searches of
 * random demands; some searches are abandoned part way (the next search ends them).
 */
class StartIndexTest {

    @Property(tries = 300)
    void searchesAgreeWithAScanWhateverChangedSince(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        int n = 1 + random.nextInt(40);
        int[] size = new int[n];
        int[] free = new int[n];
        for (int i = 0; i < n; i++) {
            size[i] = 4 + random.nextInt(61);
            free[i] = random.nextInt(size[i] + 1);
        }
        AvailabilityProfile profile = new AvailabilityProfile(0, free, new long[n], new int[n]);
        for (int i = 0; i < n; i++) {
            int held = size[i] - free[i];
            while (held > 0) {
                int back = 1 + random.nextInt(held);
                profile.release(i, 60L * (1 + random.nextInt(300)), back, 0, 0);
                held -= back;
            }
        }
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        StartIndex index = profile.index(all);
        for (int step = 0; step < 40; step++) {
            if (random.nextInt(3) == 0) {
                reserveSomething(profile, random, n);
                continue;
            }
            long cpus = 1 + random.nextInt(64);
            long duration = random.nextInt(4) == 0 ? AvailabilityProfile.NEVER : 60L * random.nextInt(600);
            long cutoff = random.nextBoolean() ? AvailabilityProfile.NEVER : 60L * random.nextInt(600);
            String context = "seed " + seed + ", step " + step + ": " + cpus + " CPUs for " + duration + " s by " + cutoff;
            StartOrder search = index.search(cpus, duration, cutoff,
                    (node, from, end) -> profile.earliest(node, from, duration, cpus, 0, 0, end));
            boolean abandon = random.nextInt(4) == 0;
            int keep = abandon ? random.nextInt(n + 1) : Integer.MAX_VALUE;
            List<long[]> seen = new ArrayList<>();
            while (seen.size() < keep) {
                long peek = search.peek();
                int node = search.next();
                if (node < 0) {
                    break;
                }
                assertTrue(peek <= search.time(), context + ": peek " + peek + " after " + search.time());
                seen.add(new long[] {node, search.time()});
            }
            TreeSet<Integer> nodes = new TreeSet<>();
            for (int i = 0; i < seen.size(); i++) {
                long[] s = seen.get(i);
                long expected = profile.earliest((int) s[0], 0, duration, cpus, 0, 0, cutoff);
                assertEquals(expected, s[1], context + ": node " + s[0] + "'s start");
                assertTrue(i == 0 || seen.get(i - 1)[1] <= s[1], context + ": out of order at " + i);
                assertTrue(nodes.add((int) s[0]), context + ": node " + s[0] + " twice");
            }
            long last = seen.isEmpty() ? 0 : seen.getLast()[1];
            for (int node = 0; node < n; node++) {
                long e = profile.earliest(node, 0, duration, cpus, 0, 0, cutoff);
                boolean owed = abandon ? e < last : e != AvailabilityProfile.NEVER && e <= cutoff;
                if (owed) {
                    assertTrue(nodes.contains(node), context + ": node " + node + " (start " + e + ") missed");
                }
            }
        }
    }

    @Test
    void aReservationMovesANodeBehindTheOthers() {
        AvailabilityProfile profile = new AvailabilityProfile(0, new int[] {8, 8, 8}, new long[3], new int[3]);
        StartIndex index = profile.index(new int[] {0, 1, 2});
        assertEquals(List.of(0, 1, 2), drain(index, profile, 8, 600).stream().sorted().toList());
        profile.reserve(0, 0, 3_600, 8, 0, 0);
        profile.reserve(1, 0, 1_200, 4, 0, 0);
        profile.reserve(2, 0, 600, 6, 0, 0);
        assertEquals(List.of(2, 1, 0), drain(index, profile, 8, 600), "free at 600, 1200, 3600");
        assertEquals(List.of(1, 2, 0), drain(index, profile, 4, 600), "4 CPUs fit beside node 1's reservation now");
    }

    @Test
    void aProfileWithAnIndexOnlyLosesResources() {
        AvailabilityProfile profile = new AvailabilityProfile(0, new int[] {4}, new long[1], new int[1]);
        profile.release(0, 600, 4, 0, 0);
        profile.index(new int[] {0});
        assertThrows(IllegalStateException.class, () -> profile.release(0, 1_200, 4, 0, 0),
                "a release would make the index's bounds too late");
    }

    private static List<Integer> drain(StartIndex index, AvailabilityProfile profile, long cpus, long duration) {
        StartOrder search = index.search(cpus, duration, AvailabilityProfile.NEVER,
                (node, from, end) -> profile.earliest(node, from, duration, cpus, 0, 0, end));
        List<Integer> order = new ArrayList<>();
        for (int node = search.next(); node >= 0; node = search.next()) {
            order.add(node);
        }
        return order;
    }

    private static void reserveSomething(AvailabilityProfile profile, Random random, int n) {
        int node = random.nextInt(n);
        long start = 60L * random.nextInt(400);
        long end = random.nextInt(5) == 0 ? AvailabilityProfile.NEVER : start + 60L * (1 + random.nextInt(200));
        int cpus = 1 + random.nextInt(16);
        if (profile.fits(node, start, end, cpus, 0, 0)) {
            profile.reserve(node, start, end, cpus, 0, 0);
        }
    }
}
