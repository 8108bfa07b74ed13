package dev.gantry.common.posix;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The host's user accounts through the C library (getpwnam_r, getpwuid_r, getgrouplist), so every name service the
 * host is configured with (files, LDAP, sssd) answers, as it does for Slurm's daemons. Thread-safe (the reentrant
 * calls, each with its own buffer).
 */
public final class PosixAccounts {

    /** One account: name, uid, primary gid, and every group it is in (the primary one included). */
    public record Account(String name, long uid, long gid, List<Long> groups) {
        public Account {
            groups = List.copyOf(groups);
        }
    }

    private PosixAccounts() {}

    /** The account named {@code name}; empty when the host has none. */
    public static Optional<Account> byName(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        return lookup(result -> C.INSTANCE.getpwnam_r(name, result.entry, result.buffer, BUFFER, result.found));
    }

    /** The account with uid {@code uid}; empty when the host has none. */
    public static Optional<Account> byUid(long uid) {
        if (uid < 0 || uid > 0xffff_fffeL) {
            return Optional.empty();
        }
        return lookup(result -> C.INSTANCE.getpwuid_r((int) uid, result.entry, result.buffer, BUFFER, result.found));
    }

    private static final int BUFFER = 16 * 1024;

    private static final class Result {
        final Passwd entry = new Passwd();
        final Memory buffer = new Memory(BUFFER);
        final PointerByReference found = new PointerByReference();
    }

    private interface Call {
        int run(Result result);
    }

    private static Optional<Account> lookup(Call call) {
        Result r = new Result();
        int rc = call.run(r);
        if (rc != 0 || r.found.getValue() == null) {
            return Optional.empty();
        }
        r.entry.read();
        String name = r.entry.pw_name;
        long uid = Integer.toUnsignedLong(r.entry.pw_uid);
        long gid = Integer.toUnsignedLong(r.entry.pw_gid);
        return Optional.of(new Account(name, uid, gid, groups(name, gid)));
    }

    /** getgrouplist(3): the groups {@code user} is a member of, {@code gid} first. */
    private static List<Long> groups(String user, long gid) {
        int[] size = {64};
        for (int attempt = 0; attempt < 4; attempt++) {
            Memory groups = new Memory(4L * size[0]);
            IntByReference n = new IntByReference(size[0]);
            int rc = C.INSTANCE.getgrouplist(user, (int) gid, groups, n);
            if (rc >= 0) {
                List<Long> out = new ArrayList<>(n.getValue());
                for (int i = 0; i < n.getValue(); i++) {
                    out.add(Integer.toUnsignedLong(groups.getInt(4L * i)));
                }
                return out;
            }
            size[0] = Math.max(n.getValue(), size[0] * 4);
        }
        return List.of(gid);
    }

    /** struct passwd (glibc, x86_64 and aarch64 alike). */
    @Structure.FieldOrder({"pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir", "pw_shell"})
    public static final class Passwd extends Structure {
        public String pw_name;
        public String pw_passwd;
        public int pw_uid;
        public int pw_gid;
        public String pw_gecos;
        public String pw_dir;
        public String pw_shell;
    }

    private interface C extends Library {
        C INSTANCE = Native.load("c", C.class);

        int getpwnam_r(String name, Passwd pwd, Pointer buf, long buflen, PointerByReference result);

        int getpwuid_r(int uid, Passwd pwd, Pointer buf, long buflen, PointerByReference result);

        int getgrouplist(String user, int group, Pointer groups, IntByReference ngroups);
    }
}
