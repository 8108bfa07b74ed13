package dev.gantry.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Slurm's AdminLevel as Gantry models it: who acts on every job. */
class RoleTest {

    private static final ClusterConfig CONFIG = ConfigParser.parse(Path.of("t.conf"), """
            SlurmUser=slurm
            NodeName=n1 CPUs=1
            PartitionName=p Nodes=n1 Default=YES
            Account=a Users=alice,olga,adam
            User=olga DefaultAccount=a AdminLevel=Operator
            User=adam DefaultAccount=a AdminLevel=Administrator
            User=alice DefaultAccount=a AdminLevel=None
            """);

    @ParameterizedTest(name = "{0} (uid {1}) is {2}")
    @CsvSource({
            "alice, 1000, USER, false",
            "mallory, 1001, USER, false",          // not in the config at all
            "olga, 1002, OPERATOR, true",
            "adam, 1003, ADMINISTRATOR, true",
            "root, -1, ADMINISTRATOR, true",
            "someone, 0, ADMINISTRATOR, true",     // uid 0 is root whatever the name
            "slurm, -1, ADMINISTRATOR, true"})     // SlurmUser
    void rolesFromAdminLevelRootAndSlurmUser(String user, int uid, Role role, boolean anyJob) {
        assertEquals(role, Role.of(CONFIG, user, uid));
        assertEquals(anyJob, Role.of(CONFIG, user, uid).actsOnAnyJob());
    }
}
