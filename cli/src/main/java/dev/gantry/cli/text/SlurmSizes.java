package dev.gantry.cli.text;

/**
 * Memory sizes as Slurm prints them with {@code convert_num_unit(..., UNIT_MEGA, CONVERT_NUM_UNIT_EXACT)}:
 * a whole number of MiB is moved to the largest unit that keeps it whole (2048 → "2G", 1536 → "1536M").
 */
public final class SlurmSizes {

    private static final char[] UNITS = {'M', 'G', 'T', 'P'};

    private SlurmSizes() {}

    /** {@code mb} MiB as "0", "100M", "2G", "1T"; negative values print as "0". */
    public static String mebibytes(long mb) {
        if (mb <= 0) {
            return "0";
        }
        long value = mb;
        int unit = 0;
        while (unit < UNITS.length - 1 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        return value + String.valueOf(UNITS[unit]);
    }
}
