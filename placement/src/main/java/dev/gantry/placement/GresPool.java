package dev.gantry.placement;

/**
 * One kind of generic resource on a node: {@code gpu:4} is (gpu, "", 4), {@code gpu:a100:4} is (gpu, a100, 4).
 *
 * @param type "" when untyped
 */
public record GresPool(String name, String type, int count) {

    public GresPool {
        if (name.isBlank() || count < 0) {
            throw new IllegalArgumentException("bad GRES " + name + ":" + type + ":" + count);
        }
    }

    /** Whether a request for {@code name} (any type when {@code type} is empty) may draw from this pool. */
    public boolean serves(String name, String type) {
        return this.name.equals(name) && (type.isEmpty() || this.type.equals(type));
    }
}
