package dev.gantry.scheduler.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.auth.Identity;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunAsTest {

    static final Identity ALICE = new Identity("alice", 1001, 1001, List.of(1001L, 50L), "local");
    static final Identity ROOT = new Identity("root", 0, 0, List.of(0L), "local");
    static final Map<String, RunAs.Account> HOST = Map.of("bob", new RunAs.Account("bob", 1002, 1002),
            "root", new RunAs.Account("root", 0, 0));

    static RunAs.Owner resolve(Identity caller, String user, long uid, long gid, boolean admin) {
        return RunAs.resolve(caller, user, uid, gid, admin, n -> Optional.ofNullable(HOST.get(n)),
                u -> HOST.values().stream().filter(a -> a.uid() == u).findFirst());
    }

    @Test
    void anUnsetOrOwnSubmitter_isTheCaller() {
        assertEquals(new RunAs.Owner("alice", 1001, 1001), resolve(ALICE, "", 0, 0, false));
        assertEquals(new RunAs.Owner("alice", 1001, 1001), resolve(ALICE, "alice", 1001, 1001, false));
        assertEquals(new RunAs.Owner("alice", 1001, 50), resolve(ALICE, "alice", 1001, 50, false), "a group of hers (sg)");
        assertEquals(new RunAs.Owner("alice", 1001, 1001), resolve(ALICE, "alice", 1001, 0, false), "a group not hers is not taken");
    }

    @Test
    void aUserClaimingRootOrAnotherUser_isRefused_namingTheField() {
        SecurityException uid0 = assertThrows(SecurityException.class, () -> resolve(ALICE, "alice", 0, 0, false));
        assertTrue(uid0.getMessage().startsWith("uid: 0 is not yours"), uid0.getMessage());
        SecurityException root = assertThrows(SecurityException.class, () -> resolve(ALICE, "root", 0, 0, false));
        assertTrue(root.getMessage().startsWith("user: root is not you"), root.getMessage());
        assertThrows(SecurityException.class, () -> resolve(ALICE, "bob", 1002, 1002, false));
        assertThrows(SecurityException.class, () -> resolve(ALICE, "", 1002, 0, false));
    }

    @Test
    void anAdministrator_mayActForAUserOfThisHost_asThatUsersAccount() {
        assertEquals(new RunAs.Owner("bob", 1002, 1002), resolve(ROOT, "bob", 0, 0, true));
        assertEquals(new RunAs.Owner("bob", 1002, 1002), resolve(ROOT, "", 1002, 0, true), "by uid (sbatch --uid=1002)");
        assertEquals(new RunAs.Owner("bob", 1002, 1002), resolve(ROOT, "bob", 1002, 4242, true), "gid from the account");
        assertThrows(SecurityException.class, () -> resolve(ROOT, "mallory", 0, 0, true));
        assertThrows(SecurityException.class, () -> resolve(ROOT, "bob", 1003, 0, true));
    }
}
