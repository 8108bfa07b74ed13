package dev.gantry.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Jobs hold one copy of what they have in common: the environment of one submitter's jobs, and the request of an
 * array's tasks read back from the database.
 */
class SharedRequestPartsTest {

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], new String(kv[i + 1])); // equal, not the same strings
        }
        return m;
    }

    private static JobRequest request(String script, Map<String, String> environment) {
        return JobRequest.builder().script(script).workDir("/tmp").user("alice").environment(environment).build();
    }

    @Test
    void equalEnvironments_inTheSameOrder_areOneObject() {
        JobRequest a = request("#!/bin/sh\necho a\n", env("HOME", "/home/alice", "PATH", "/usr/bin"));
        JobRequest b = request("#!/bin/sh\necho b\n", env("HOME", "/home/alice", "PATH", "/usr/bin"));

        assertSame(a.environment(), b.environment());
    }

    @Test
    void theSameVariablesInAnotherOrder_stayApart_soEachJobKeepsItsSubmittedOrder() {
        JobRequest a = request("#!/bin/sh\n", env("HOME", "/home/alice", "PATH", "/usr/bin"));
        JobRequest b = request("#!/bin/sh\n", env("PATH", "/usr/bin", "HOME", "/home/alice"));

        assertNotSame(a.environment(), b.environment());
        assertEquals(List.of("PATH", "HOME"), List.copyOf(b.environment().keySet()));
        assertEquals(a.environment(), b.environment(), "still equal as maps");
    }

    @Test
    void differentEnvironments_areNotShared() {
        JobRequest a = request("#!/bin/sh\n", env("HOME", "/home/alice"));
        JobRequest b = request("#!/bin/sh\n", env("HOME", "/home/bob"));

        assertEquals("/home/bob", b.environment().get("HOME"));
        assertNotSame(a.environment(), b.environment());
    }

    @Test
    void theSameScriptAndDirectories_areOneString() {
        JobRequest a = JobRequest.builder().script(new String("#!/bin/sh\nrun\n")).workDir(new String("/home/alice/p"))
                .user(new String("alice")).name("a").build();
        JobRequest b = JobRequest.builder().script(new String("#!/bin/sh\nrun\n")).workDir(new String("/home/alice/p"))
                .user(new String("alice")).name("b").build();

        assertSame(a.script(), b.script());
        assertSame(a.workDir(), b.workDir());
        assertSame(a.user(), b.user());
    }

    @Test
    void equalRequestsReadBack_areOneObject_andUnequalOnesAreNot() {
        JobRequest first = request("#!/bin/sh\ntrue\n", env("HOME", "/home/alice")).shared();
        JobRequest again = request("#!/bin/sh\ntrue\n", env("HOME", "/home/alice")).shared();
        JobRequest other = request("#!/bin/sh\nfalse\n", env("HOME", "/home/alice")).shared();

        assertSame(first, again);
        assertNotSame(first, other);
        assertEquals("#!/bin/sh\nfalse\n", other.script());
    }
}
