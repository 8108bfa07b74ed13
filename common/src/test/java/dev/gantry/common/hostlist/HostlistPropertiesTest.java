package dev.gantry.common.hostlist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** Invariants of compress and expand for any set of host names. */
class HostlistPropertiesTest {

    @Property(tries = 300)
    void expandOfCompress_isTheSortedUniqueNames(@ForAll("nameLists") List<String> names) {
        List<String> sortedUnique = new ArrayList<>(new HashSet<>(names));
        sortedUnique.sort(groupThenNumber(sortedUnique));
        assertEquals(sortedUnique, Hostlist.expand(Hostlist.compress(sortedUnique)));
    }

    @Property(tries = 300)
    void expandOfCompress_keepsEveryNameOnceWhateverTheInputOrder(@ForAll("nameLists") List<String> names) {
        List<String> back = Hostlist.expand(Hostlist.compress(names));
        assertEquals(new HashSet<>(names), new HashSet<>(back));
        assertEquals(new LinkedHashSet<>(back).size(), back.size(), "no duplicates in " + back);
    }

    @Property(tries = 200)
    void compress_isIdempotentThroughExpand(@ForAll("nameLists") List<String> names) {
        String once = Hostlist.compress(names);
        assertEquals(once, Hostlist.compress(Hostlist.expand(once)));
    }

    @Provide
    Arbitrary<List<String>> nameLists() {
        Arbitrary<String> prefix = Arbitraries.of("n", "gpu", "rack1-n", "r2c", "login", "x-");
        Arbitrary<Integer> number = Arbitraries.integers().between(0, 150);
        Arbitrary<Integer> padTo = Arbitraries.of(0, 0, 2, 3);
        Arbitrary<String> numbered = Combinators.combine(prefix, number, padTo)
                .as((p, n, w) -> p + (w == 0 ? Integer.toString(n) : String.format("%0" + w + "d", n)));
        Arbitrary<String> plain = Arbitraries.of("login", "head", "mgmt-a");
        Arbitrary<String> name = Arbitraries.frequencyOf(
                Tuple.of(9, numbered), Tuple.of(1, plain));
        return name.list().ofMinSize(0).ofMaxSize(40);
    }

    /**
     * The order compress writes names in when given them in this order: grouped by prefix, then by number
     * width (names without a trailing number on their own; an unpadded number as wide as a padded one of the
     * same prefix counts as padded), then by number.
     */
    private static Comparator<String> groupThenNumber(List<String> names) {
        Set<String> paddedGroups = new HashSet<>();
        for (String name : names) {
            String digits = digits(name);
            if (digits.length() > 1 && digits.charAt(0) == '0') {
                paddedGroups.add(prefix(name) + "/" + digits.length());
            }
        }
        ToIntFunction<String> width = name -> {
            String digits = digits(name);
            if (digits.isEmpty()) {
                return -1;
            }
            return paddedGroups.contains(prefix(name) + "/" + digits.length()) ? digits.length() : 0;
        };
        return Comparator.comparing(HostlistPropertiesTest::prefix)
                .thenComparingInt(width)
                .thenComparingLong(name -> digits(name).isEmpty() ? -1 : Long.parseLong(digits(name)));
    }

    private static String prefix(String name) {
        return name.substring(0, name.length() - digits(name).length());
    }

    private static String digits(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        return name.substring(i);
    }
}
