package dev.gantry.cli.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/** A properties file of the run directory, written whole or not at all (a reader never sees half of it). */
final class PropertiesFile {

    private PropertiesFile() {}

    /** Writes {@code p} to {@code file} through a temporary file moved over it. */
    static void store(Path file, Properties p, String comment) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, comment);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The properties in {@code file}, or empty when there is none. */
    static Optional<Properties> load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return Optional.of(p);
    }
}
