package dev.gantry.cli;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real user and host, read lazily: the ids from the OS (jdk.security.auth's UnixSystem), the host name
 * from /proc/sys/kernel/hostname (no DNS lookup), group names from /etc/group.
 */
final class UnixAccount implements LocalAccount {

    private UnixSystem system;
    private final java.util.Map<Integer, String> groups = new java.util.HashMap<>();

    private UnixSystem system() {
        if (system == null) {
            system = new UnixSystem();
        }
        return system;
    }

    @Override
    public String userName() {
        return system().getUsername();
    }

    @Override
    public int uid() {
        return (int) system().getUid();
    }

    @Override
    public int gid() {
        return (int) system().getGid();
    }

    @Override
    public String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    @Override
    public String groupName(int gid) {
        return groups.computeIfAbsent(gid, UnixAccount::readGroupName);
    }

    private static String readGroupName(int gid) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/group"), StandardCharsets.UTF_8)) {
                String[] f = line.split(":", -1);
                if (f.length >= 3 && f[2].equals(Integer.toUnsignedString(gid))) {
                    return f[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown: the caller prints the number
        }
        return null;
    }
}
