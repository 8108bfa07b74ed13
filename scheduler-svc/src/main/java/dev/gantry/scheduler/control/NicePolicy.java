package dev.gantry.scheduler.control;

/**
 * {@code --nice[=adjustment]} and scontrol update Nice=: the adjustment subtracted from the job's priority
 * (https://slurm.schedmd.com/sbatch.html#OPT_nice). Bare --nice means 100. The range is ±2147483645 (Slurm's
 * NICE_OFFSET − 3), and only operators and administrators may give a negative adjustment. Pure.
 */
public final class NicePolicy {

    /** The largest adjustment either way. */
    public static final int MAX = 2_147_483_645;

    /** The adjustment of a bare --nice. */
    public static final int BARE = 100;

    private NicePolicy() {}

    /**
     * Parses the option's argument.
     *
     * @param arg the text after "--nice=", or null for a bare --nice
     * @throws InvalidControlException "Nice value out of range (+/- 2147483645)" beyond the range; "Invalid --nice
     *         value" when not an integer
     */
    public static int parse(String arg) {
        if (arg == null) {
            return BARE;
        }
        String s = arg.trim();
        if (!s.matches("[+-]?[0-9]+")) {
            throw new InvalidControlException("nice", "Invalid --nice value", "--nice=" + arg + " is not an integer");
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        return checkRange(v);
    }

    /** The value as an int, when within ±{@link #MAX}. */
    public static int checkRange(long nice) {
        if (Math.abs(nice) > MAX || nice == Long.MIN_VALUE) {
            throw new InvalidControlException("nice", "Nice value out of range (+/- " + MAX + ")",
                    "--nice=" + nice);
        }
        return (int) nice;
    }

    /**
     * Only operators and administrators lower a priority below what the job would get: a negative adjustment.
     *
     * @throws InvalidControlException "Invalid --nice value" for a negative adjustment without the privilege
     */
    public static void checkPermission(int nice, boolean isAdmin) {
        if (nice < 0 && !isAdmin) {
            throw new InvalidControlException("nice", "Invalid --nice value",
                    "only operators and administrators may set a negative nice (" + nice + ")");
        }
    }
}
