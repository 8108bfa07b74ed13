package dev.gantry.cli.cluster;

import picocli.CommandLine;

/** Entry point of bin/gantry. */
public final class GantryMain {
    private GantryMain() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new GantryCommand()).execute(args));
    }
}
