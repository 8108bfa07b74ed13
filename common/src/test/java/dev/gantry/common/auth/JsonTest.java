package dev.gantry.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesAndReadsBackStringsNumbersBooleansAndArrays() {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sun", "al\"i\\ce\n");
        claims.put("uid", 1001L);
        claims.put("admin", true);
        claims.put("groups", List.of(1L, 27L));

        String json = Json.write(claims);

        assertEquals("{\"sun\":\"al\\\"i\\\\ce\\n\",\"uid\":1001,\"admin\":true,\"groups\":[1,27]}", json);
        assertEquals(claims, Json.read(json));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "[]", "{", "{\"a\":1", "{\"a\":1.5}", "{\"a\":{\"b\":1}}", "{\"a\":1}x", "{a:1}",
            "{\"a\":1,\"a\":2}", "{\"a\":[[1]]}", "{\"a\":\"\\q\"}"})
    void refusesWhatIsNotAFlatObject(String json) {
        assertThrows(IllegalArgumentException.class, () -> Json.read(json));
    }

    @Test
    void nullIsAbsent() {
        assertEquals(Map.of("b", 2L), Json.read("{ \"a\" : null , \"b\" : 2 }"));
    }
}
