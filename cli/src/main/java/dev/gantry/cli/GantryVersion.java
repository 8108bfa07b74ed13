package dev.gantry.cli;

import picocli.CommandLine.IVersionProvider;

/** What -V/--version prints: "gantry" and the jar's version. */
public final class GantryVersion {

    private GantryVersion() {}

    /** The version from the jar manifest, or "dev" when run from classes. */
    public static String version() {
        String v = GantryVersion.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** The line -V prints. */
    public static String line() {
        return "gantry " + version();
    }

    /** For picocli commands: {@code @Command(versionProvider = GantryVersion.ForPicocli.class)}. */
    public static final class ForPicocli implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }
}
