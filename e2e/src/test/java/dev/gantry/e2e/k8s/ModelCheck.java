package dev.gantry.e2e.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a rendered document is a valid object of its kind, judged against the fabric8 Kubernetes model (generated
 * from Kubernetes' OpenAPI schema): the apiVersion is the kind's, every field is one the kind's schema has (fabric8
 * parks unknown fields in {@code additionalProperties}, so any non-empty one is a misspelt or misplaced field), and
 * reading then writing the object gives the same document back (a value of the wrong type, such as a port written as
 * a string where an integer belongs, does not survive the trip).
 */
public final class ModelCheck {
    private ModelCheck() {}

    /** Problems with {@code doc} read as {@code object}; empty when it is valid. */
    public static List<String> problems(JsonNode doc, HasMetadata object) {
        List<String> problems = new ArrayList<>();
        String where = doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
        String expectedApi = HasMetadata.getApiVersion(object.getClass());
        if (!expectedApi.equals(doc.path("apiVersion").asText())) {
            problems.add(where + ": apiVersion " + doc.path("apiVersion").asText() + ", the kind is served as " + expectedApi);
        }
        unknownFields(object, where, problems, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
        JsonNode back = Manifests.JSON.valueToTree(object);
        survives(doc, back, where, problems);
        String name = doc.path("metadata").path("name").asText();
        if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            problems.add(where + ": metadata.name is not a DNS-1123 subdomain");
        }
        return problems;
    }

    /** Every value written is read back unchanged (reading may add defaults, e.g. a claim template's kind). */
    private static void survives(JsonNode written, JsonNode read, String path, List<String> problems) {
        if (written.isObject() && read.isObject()) {
            written.fieldNames().forEachRemaining(f -> survives(written.get(f), read.path(f), path + "." + f, problems));
        } else if (written.isArray() && read.isArray() && written.size() == read.size()) {
            for (int i = 0; i < written.size(); i++) {
                survives(written.get(i), read.get(i), path + "[" + i + "]", problems);
            }
        } else if (!written.equals(read) && !(written.isNumber() && read.isNumber() && written.asText().equals(read.asText()))) {
            problems.add(path + ": written " + written + " (" + written.getNodeType() + "), read back as " + read
                    + " (" + read.getNodeType() + "): not a value of the field's type");
        }
    }

    private static void unknownFields(Object o, String path, List<String> problems, Set<Object> seen) {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                unknownFields(e, path + "[" + i++ + "]", problems, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> unknownFields(v, path + "." + k, problems, seen));
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("get")
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = m.invoke(o);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (m.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    problems.add(path + ": fields the kind does not have: " + extra.keySet());
                }
                continue;
            }
            String field = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
            unknownFields(value, path + "." + field, problems, seen);
        }
    }
}
