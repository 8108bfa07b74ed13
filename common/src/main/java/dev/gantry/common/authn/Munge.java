package dev.gantry.common.authn;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.Optional;

/**
 * MUNGE credentials through the site's munged (https://dun.github.io/munge/), as Slurm's auth/munge uses them:
 * libmunge encodes a credential naming the calling process's uid and gid, and decodes one, checking it was made with
 * the cluster's key, has not expired and is not replayed. Each call opens the munged socket given (Slurm's
 * {@code AuthInfo=socket=…}), or the default one. Thread-safe. Needs libmunge.so.2 (Debian's libmunge2).
 */
public final class Munge {

    /** A decoded credential: who made it. */
    public record Decoded(long uid, long gid) {}

    private static final int MUNGE_OPT_SOCKET = 8; // munge.h: enum munge_opt
    private static final int EMUNGE_SUCCESS = 0;

    private final Optional<String> socket;

    public Munge(Optional<String> socket) {
        this.socket = socket;
    }

    /** Whether libmunge can be loaded here. */
    public static boolean available() {
        try {
            return Lib.INSTANCE != null;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return false;
        }
    }

    /** Decodes {@code credential}; throws naming MUNGE's reason when it is not valid (bad, expired, replayed…). */
    public Decoded decode(String credential) throws AuthenticationException {
        Pointer ctx = context();
        try {
            PointerByReference payload = new PointerByReference();
            IntByReference length = new IntByReference();
            IntByReference uid = new IntByReference();
            IntByReference gid = new IntByReference();
            int rc = Lib.INSTANCE.munge_decode(credential, ctx, payload, length, uid, gid);
            if (payload.getValue() != null) {
                Native.free(Pointer.nativeValue(payload.getValue()));
            }
            if (rc != EMUNGE_SUCCESS) {
                throw new AuthenticationException("MUNGE credential refused: " + reason(ctx, rc));
            }
            return new Decoded(Integer.toUnsignedLong(uid.getValue()), Integer.toUnsignedLong(gid.getValue()));
        } finally {
            Lib.INSTANCE.munge_ctx_destroy(ctx);
        }
    }

    /** A new credential naming the calling process (for clients and tests). */
    public String encode() throws AuthenticationException {
        Pointer ctx = context();
        try {
            PointerByReference cred = new PointerByReference();
            int rc = Lib.INSTANCE.munge_encode(cred, ctx, null, 0);
            if (rc != EMUNGE_SUCCESS) {
                throw new AuthenticationException("cannot get a MUNGE credential: " + reason(ctx, rc));
            }
            try {
                return cred.getValue().getString(0);
            } finally {
                Native.free(Pointer.nativeValue(cred.getValue()));
            }
        } finally {
            Lib.INSTANCE.munge_ctx_destroy(ctx);
        }
    }

    private Pointer context() throws AuthenticationException {
        Pointer ctx = Lib.INSTANCE.munge_ctx_create();
        if (ctx == null) {
            throw new AuthenticationException("cannot create a MUNGE context");
        }
        if (socket.isPresent() && Lib.INSTANCE.munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket.get()) != EMUNGE_SUCCESS) {
            Lib.INSTANCE.munge_ctx_destroy(ctx);
            throw new AuthenticationException("cannot use the MUNGE socket " + socket.get());
        }
        return ctx;
    }

    private static String reason(Pointer ctx, int rc) {
        String text = Lib.INSTANCE.munge_ctx_strerror(ctx);
        return (text == null ? Lib.INSTANCE.munge_strerror(rc) : text) + " (" + rc + ")";
    }

    private interface Lib extends Library {
        Lib INSTANCE = Native.load("libmunge.so.2", Lib.class);

        Pointer munge_ctx_create();

        void munge_ctx_destroy(Pointer ctx);

        int munge_ctx_set(Pointer ctx, int option, Object... value);

        String munge_ctx_strerror(Pointer ctx);

        String munge_strerror(int error);

        int munge_encode(PointerByReference cred, Pointer ctx, Pointer buf, int len);

        int munge_decode(String cred, Pointer ctx, PointerByReference buf, IntByReference len, IntByReference uid, IntByReference gid);
    }
}
