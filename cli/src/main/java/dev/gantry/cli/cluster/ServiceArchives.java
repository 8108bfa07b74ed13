package dev.gantry.cli.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The dynamic CDS archives the local cluster's services start from (a service starts in about half the time with one).
 *
 * <p>An archive is never written where another JVM may be reading or writing it. A JVM started without a usable
 * archive writes its own, at exit, to a file of its own in the run directory ({@code -XX:ArchiveClassesAtExit});
 * {@code gantry down}, once the services have exited, {@link #promote promotes} one such file next to the jar by an
 * atomic rename, and every later start maps it read-only ({@code -XX:SharedArchiveFile}). The JVM's own
 * {@code -XX:+AutoCreateSharedArchive}, used before, lets every JVM of a jar rewrite the one shared file at exit: three
 * agents stopped together could leave it corrupt, and every agent started from it afterwards died at once in
 * {@code AOTClassLocationConfig::validate} (SIGSEGV) — the whole end-to-end suite failed on one such file.
 *
 * <p>An archive is keyed by the JDK (home and version) and used only when newer than the jar and every jar of its
 * {@code lib/} (the JVM would silently ignore a stale one, and nothing would replace it). A service that dies of a
 * JVM fatal error while using an archive has the archive {@link #discardAfterCrash discarded}: a cache must never keep
 * a service from starting.
 */
final class ServiceArchives {

    /** The first four bytes of a dynamic archive (HotSpot's CDS_DYNAMIC_ARCHIVE_MAGIC, little-endian on disk here). */
    static final int DYNAMIC_MAGIC = 0xf00baba8;
    /** What HotSpot prints first when it dies of a fatal error (the hs_err header). */
    static final String FATAL_ERROR = "A fatal error has been detected by the Java Runtime Environment";
    private static final String READ = "-XX:SharedArchiveFile=";
    private static final String WRITE = "-XX:ArchiveClassesAtExit=";

    private ServiceArchives() {
    }

    /** Where the archive of {@code jar} for the running JDK lives: beside the jar, named by the jar and the JDK. */
    static Path archive(Path jar) {
        String jdk = (System.getProperty("java.home", "") + "-" + Runtime.version()).replaceAll("[^A-Za-z0-9._-]", "_");
        return jar.resolveSibling("jvm-cache").resolve(jar.getFileName() + "-" + jdk + ".jsa");
    }

    /** The file service {@code name} writes its archive to at exit. */
    static Path part(Path runDir, String name) {
        return runDir.resolve("jvm-cache").resolve(name + ".jsa");
    }

    /**
     * The JVM options for service {@code name} started from {@code jar}: read the archive when it is usable, else write
     * one of its own at exit.
     */
    static List<String> flags(Path jar, Path runDir, String name) throws IOException {
        Path archive = archive(jar);
        if (usable(archive, jar)) {
            return List.of(READ + archive);
        }
        Path part = part(runDir, name);
        Files.createDirectories(part.getParent());
        Files.deleteIfExists(part); // an earlier run's: only this start's is promoted
        return List.of(WRITE + part);
    }

    /** Whether {@code archive} exists, is a dynamic archive and is newer than {@code jar} and its lib/ jars. */
    static boolean usable(Path archive, Path jar) {
        try {
            if (!Files.isRegularFile(archive) || !hasMagic(archive)) {
                return false;
            }
            FileTime made = Files.getLastModifiedTime(archive);
            if (Files.getLastModifiedTime(jar).compareTo(made) >= 0) {
                return false;
            }
            Path lib = jar.resolveSibling("lib");
            if (Files.isDirectory(lib)) {
                try (Stream<Path> jars = Files.list(lib)) {
                    for (Path j : (Iterable<Path>) jars::iterator) {
                        if (Files.getLastModifiedTime(j).compareTo(made) >= 0) {
                            return false;
                        }
                    }
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code file} starts with the dynamic archive magic (HotSpot writes the header last). */
    static boolean hasMagic(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4);
            return head.length == 4 && ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt() == DYNAMIC_MAGIC;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * After {@code services} have exited: moves one complete archive they wrote beside its jar (unless a usable one is
     * there already) and deletes the rest; returns the archives promoted. Nothing here may fail a stop: a directory
     * that cannot be written only means no archive.
     */
    static List<Path> promote(List<StartedCluster.Service> services) {
        List<Path> promoted = new ArrayList<>();
        for (StartedCluster.Service s : services) {
            Optional<Path> part = option(s.command(), WRITE);
            Optional<Path> jar = jarOf(s.command());
            if (part.isEmpty() || jar.isEmpty()) {
                continue;
            }
            try {
                Path archive = archive(jar.get());
                if (Files.isRegularFile(part.get()) && Files.size(part.get()) > 0 && hasMagic(part.get()) && !usable(archive, jar.get())) {
                    Files.createDirectories(archive.getParent());
                    // the run directory may be on another file system: copied beside the archive, then renamed
                    Path tmp = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
                    Files.copy(part.get(), tmp, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(tmp, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    promoted.add(archive);
                }
            } catch (IOException | RuntimeException e) {
                // not writable (another user's build tree), full disk: the next start runs without an archive
            } finally {
                try {
                    Files.deleteIfExists(part.get());
                } catch (IOException e) {
                    // the run directory's: removed with it
                }
            }
        }
        return promoted;
    }

    /**
     * After service {@code s} exited: when its log ends in a JVM fatal error and it was started from an archive,
     * deletes the archive (its next start runs without one); returns the archive deleted.
     */
    static Optional<Path> discardAfterCrash(StartedCluster.Service s, List<String> logTail) {
        Optional<Path> archive = option(s.command(), READ);
        if (archive.isEmpty() || logTail.stream().noneMatch(l -> l.contains(FATAL_ERROR))) {
            return Optional.empty();
        }
        try {
            return Files.deleteIfExists(archive.get()) ? archive : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> option(List<String> command, String prefix) {
        return command.stream().filter(a -> a.startsWith(prefix)).findFirst().map(a -> Path.of(a.substring(prefix.length())));
    }

    private static Optional<Path> jarOf(List<String> command) {
        int i = command.indexOf("-jar");
        return i >= 0 && i + 1 < command.size() ? Optional.of(Path.of(command.get(i + 1))) : Optional.empty();
    }
}
