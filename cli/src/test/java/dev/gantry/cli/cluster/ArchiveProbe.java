package dev.gantry.cli.cluster;

/**
 * A stand-in for a service in {@link ServiceArchivesTest}: loads some classes (so that its archive has something in
 * it), prints "up", and runs until SIGTERM; with the argument "once" it exits at once.
 */
public final class ArchiveProbe {
    private ArchiveProbe() {
    }

    public static void main(String[] args) throws Exception {
        new java.util.concurrent.ConcurrentSkipListMap<String, String>().put("a", "b");
        java.time.format.DateTimeFormatter.ISO_INSTANT.format(java.time.Instant.EPOCH);
        java.util.logging.Logger.getLogger("probe").fine("loaded");
        System.out.println("up");
        System.out.flush();
        if (args.length == 0 || !args[0].equals("once")) {
            Thread.sleep(600_000);
        }
    }
}
