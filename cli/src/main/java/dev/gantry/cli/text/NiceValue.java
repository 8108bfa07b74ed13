package dev.gantry.cli.text;

/**
 * Slurm's nice value as sbatch --nice and scontrol update Nice= take it: a signed whole number within
 * ±{@link #MAX} (Slurm's NICE_OFFSET - 3); a bare --nice or Nice means {@link #BARE}. The callers word the errors,
 * sbatch and scontrol print different messages.
 */
public final class NiceValue {

    /** The largest nice value either way (Slurm's NICE_OFFSET - 3). */
    public static final long MAX = 2_147_483_645L;

    /** The value of a bare --nice or Nice. */
    public static final int BARE = 100;

    /** Why a text is not a nice value. */
    public static final class Invalid extends Exception {
        private final boolean outOfRange;

        private Invalid(boolean outOfRange) {
            super(outOfRange ? "out of range" : "not a signed whole number", null, false, false);
            this.outOfRange = outOfRange;
        }

        /** True for a whole number beyond ±{@link #MAX}; false for a text that is no number at all. */
        public boolean outOfRange() {
            return outOfRange;
        }
    }

    private NiceValue() {}

    /** Parses {@code text} (surrounding blanks allowed, a leading + or -). */
    public static int parse(String text) throws Invalid {
        String s = text.trim();
        if (!s.matches("[+-]?[0-9]+")) {
            throw new Invalid(false);
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new Invalid(true); // digits beyond a long
        }
        if (Math.abs(v) > MAX || v == Long.MIN_VALUE) { // abs(MIN_VALUE) is negative
            throw new Invalid(true);
        }
        return (int) v;
    }
}
