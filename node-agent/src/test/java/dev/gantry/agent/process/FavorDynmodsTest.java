package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the cgroup2 mount, the remount's options, and what {@link FavorDynmods#ensure} does with a mount program. */
class FavorDynmodsTest {

    /** A hybrid host like this project's machines: v1 controllers, cgroup2 at /sys/fs/cgroup/unified. */
    static final String HYBRID = """
            31 23 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            35 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    /** A systemd host: pure v2, with the superblock options systemd sets and per-mount flags. */
    static final String SYSTEMD = """
            25 30 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
            27 25 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
            """;

    @TempDir
    Path tmp;

    @Test
    void cgroup2_isTheFirstCgroup2Mount_withItsPerMountAndSuperblockOptions() {
        FavorDynmods.Cgroup2Mount m = FavorDynmods.cgroup2(SYSTEMD).orElseThrow();

        assertEquals("/sys/fs/cgroup", m.mountPoint());
        assertEquals(List.of("rw", "nosuid", "nodev", "noexec", "relatime"), m.mountOptions());
        assertEquals(List.of("rw", "nsdelegate", "memory_recursiveprot"), m.superOptions());
        assertFalse(m.favorsDynmods());
        assertEquals("/sys/fs/cgroup/unified", FavorDynmods.cgroup2(HYBRID).orElseThrow().mountPoint());
        assertTrue(FavorDynmods.cgroup2("41 31 0:38 / /u rw - cgroup2 cgroup2 rw,favordynmods\n").orElseThrow().favorsDynmods());
        assertTrue(FavorDynmods.cgroup2("35 31 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n").isEmpty());
    }

    @Test
    void remountOptions_keepEveryOptionTheMountHas_andAddFavordynmods() {
        // a cgroup2 reconfiguration clears the superblock flags it is not given; a classic remount the per-mount ones
        assertEquals("remount,rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot,favordynmods",
                FavorDynmods.cgroup2(SYSTEMD).orElseThrow().remountOptions());
        assertEquals("remount,rw,relatime,favordynmods", FavorDynmods.cgroup2(HYBRID).orElseThrow().remountOptions());
    }

    @Test
    void mountPoint_withEscapedSpace_isUnescaped() {
        assertEquals("/mnt/cg v2", FavorDynmods.cgroup2("41 31 0:38 / /mnt/cg\\040v2 rw - cgroup2 cgroup2 rw\n").orElseThrow().mountPoint());
        assertEquals("a\\b", Mountinfo.unescape("a\\b"));
    }

    @Test
    void ensure_remountsWithEveryOption_andChecksThatItTook() throws Exception {
        Path mountinfo = Files.writeString(tmp.resolve("mountinfo"), SYSTEMD);
        Path args = tmp.resolve("args");
        // a mount(8) that records its arguments and, like the kernel, shows the option in the table afterwards
        Path mount = program("mount", "echo \"$@\" > " + args + "\nsed -i 's/memory_recursiveprot$/memory_recursiveprot,favordynmods/' " + mountinfo);

        FavorDynmods.Outcome outcome = FavorDynmods.ensure(mountinfo, mount.toString());

        assertEquals(new FavorDynmods.Outcome.Set("/sys/fs/cgroup"), outcome);
        assertEquals("-o remount,rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot,favordynmods /sys/fs/cgroup\n",
                Files.readString(args));
    }

    @Test
    void ensure_whenTheMountHasIt_runsNothing() throws Exception {
        Path mountinfo = Files.writeString(tmp.resolve("mountinfo"), "41 31 0:38 / /u rw - cgroup2 cgroup2 rw,favordynmods\n");
        Path ran = tmp.resolve("ran");
        Path mount = program("mount", "touch " + ran);

        assertEquals(new FavorDynmods.Outcome.AlreadySet("/u"), FavorDynmods.ensure(mountinfo, mount.toString()));
        assertFalse(Files.exists(ran));
    }

    @Test
    void ensure_whenTheKernelRefuses_isNotSet_withWhatMountSaid() throws Exception {
        Path mountinfo = Files.writeString(tmp.resolve("mountinfo"), HYBRID);
        Path mount = program("mount", "echo 'mount: /sys/fs/cgroup/unified: bad option' >&2\nexit 32");

        FavorDynmods.Outcome.NotSet notSet = assertInstanceOf(FavorDynmods.Outcome.NotSet.class,
                FavorDynmods.ensure(mountinfo, mount.toString()));

        assertTrue(notSet.why().contains("exit 32") && notSet.why().contains("bad option"), notSet.why());
    }

    @Test
    void ensure_whenTheRemountSucceedsWithoutTheOption_isNotSet() throws Exception {
        Path mountinfo = Files.writeString(tmp.resolve("mountinfo"), HYBRID);
        Path mount = program("mount", "exit 0");

        FavorDynmods.Outcome.NotSet notSet = assertInstanceOf(FavorDynmods.Outcome.NotSet.class,
                FavorDynmods.ensure(mountinfo, mount.toString()));

        assertTrue(notSet.why().contains("not in /proc/self/mountinfo"), notSet.why());
    }

    @Test
    void ensure_withoutCgroup2_doesNothing() throws Exception {
        Path mountinfo = Files.writeString(tmp.resolve("mountinfo"), "35 31 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");

        assertEquals(new FavorDynmods.Outcome.NoCgroup2(), FavorDynmods.ensure(mountinfo, "/nonexistent/mount"));
    }

    /** This host, as root with cgroup2 (this project's machines): afterwards the mount has the option. */
    @Test
    void ensure_onThisHost_leavesTheOptionSet() {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isDirectory(Path.of("/sys/fs/cgroup")), "needs cgroups");
        FavorDynmods.Outcome outcome = FavorDynmods.ensure();
        assumeTrue(!(outcome instanceof FavorDynmods.Outcome.NoCgroup2), "needs a cgroup2 mount");

        assertTrue(outcome instanceof FavorDynmods.Outcome.Set || outcome instanceof FavorDynmods.Outcome.AlreadySet, outcome.toString());
        assertTrue(FavorDynmods.isSet());
    }

    private Path program(String name, String body) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
