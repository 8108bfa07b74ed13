package dev.gantry.common.units;

/**
 * Slurm memory sizes (--mem, RealMemory, DefMemPerNode): a whole number with an optional unit suffix
 * K, M, G or T (powers of 1024); no suffix means megabytes. See https://slurm.schedmd.com/sbatch.html#OPT_mem.
 */
public final class SlurmMemory {

    private SlurmMemory() {}

    /**
     * Parses a size into MiB, rounding kibibytes up.
     *
     * @throws IllegalArgumentException for an empty, negative, non-numeric, unknown-unit or too large value
     */
    public static long parseMb(String text) {
        String s = text == null ? "" : text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid memory size ''");
        }
        char last = Character.toUpperCase(s.charAt(s.length() - 1));
        String digits = Character.isLetter(last) ? s.substring(0, s.length() - 1) : s;
        if (last == 'B' && s.length() >= 2 && Character.isLetter(s.charAt(s.length() - 2))) {
            throw new IllegalArgumentException("invalid memory size '" + s + "' (use K, M, G or T)");
        }
        if (digits.isEmpty() || digits.length() > 15 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("invalid memory size '" + s + "'");
        }
        long n = Long.parseLong(digits);
        try {
            return switch (last) {
                case 'K' -> (n + 1023) / 1024;
                case 'M' -> n;
                case 'G' -> Math.multiplyExact(n, 1024L);
                case 'T' -> Math.multiplyExact(n, 1024L * 1024L);
                default -> {
                    if (Character.isLetter(last)) {
                        throw new IllegalArgumentException("invalid memory unit '" + last + "' in '" + s + "' (use K, M, G or T)");
                    }
                    yield n;
                }
            };
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("memory size '" + s + "' is too large");
        }
    }
}
