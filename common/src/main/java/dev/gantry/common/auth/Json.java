package dev.gantry.common.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of token headers and claims: one object of strings, integers, booleans and arrays of those, no nesting
 * beyond that (what JWTs of Slurm's auth/jwt and Gantry's local tokens hold). Parsing is strict: anything else is an
 * {@link IllegalArgumentException}, so a malformed token is refused, never half-read. Pure.
 */
final class Json {
    private Json() {}

    /** {@code claims} as a compact JSON object, keys in their order. Values: String, Long/Integer, Boolean, List of those. */
    static String write(Map<String, ?> claims) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, ?> e : claims.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, e.getKey());
            out.append(':');
            value(out, e.getValue());
        }
        return out.append('}').toString();
    }

    private static void value(StringBuilder out, Object v) {
        switch (v) {
            case String s -> string(out, s);
            case Integer i -> out.append(i);
            case Long l -> out.append(l);
            case Boolean b -> out.append(b);
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    value(out, list.get(i));
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("cannot write " + v.getClass().getSimpleName() + " as a claim");
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A flat JSON object: values are String, Long, Boolean or List of those (JSON null: absent). */
    static Map<String, Object> read(String json) {
        Reader r = new Reader(json);
        Map<String, Object> out = r.object();
        r.skipSpace();
        if (!r.done()) {
            throw new IllegalArgumentException("trailing characters after the JSON object");
        }
        return out;
    }

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        boolean done() {
            return i >= s.length();
        }

        void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        void expect(char c) {
            skipSpace();
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            i++;
        }

        boolean next(char c) {
            skipSpace();
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        Map<String, Object> object() {
            expect('{');
            Map<String, Object> out = new LinkedHashMap<>();
            if (next('}')) {
                return out;
            }
            do {
                skipSpace();
                String key = string();
                expect(':');
                Object v = value(true);
                if (v != null && out.put(key, v) != null) {
                    throw new IllegalArgumentException("duplicate key " + key);
                }
            } while (next(','));
            expect('}');
            return out;
        }

        Object value(boolean arrays) {
            skipSpace();
            if (i >= s.length()) {
                throw new IllegalArgumentException("value expected at " + i);
            }
            char c = s.charAt(i);
            if (c == '"') {
                return string();
            }
            if (c == '[' && arrays) {
                i++;
                List<Object> list = new ArrayList<>();
                if (next(']')) {
                    return list;
                }
                do {
                    Object v = value(false);
                    if (v == null) {
                        throw new IllegalArgumentException("null in an array");
                    }
                    list.add(v);
                } while (next(','));
                expect(']');
                return list;
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start || (i == start + 1 && c == '-')) {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + start);
            }
            if (i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                throw new IllegalArgumentException("only integers are allowed, at " + start);
            }
            return Long.parseLong(s.substring(start, i));
        }

        String string() {
            if (i >= s.length() || s.charAt(i) != '"') {
                throw new IllegalArgumentException("string expected at " + i);
            }
            i++;
            StringBuilder out = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw new IllegalArgumentException("short \\u escape");
                        }
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }
    }
}
