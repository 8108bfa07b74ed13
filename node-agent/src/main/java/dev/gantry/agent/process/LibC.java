package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The few libc calls the agent needs, through JNA (no fork of /bin/kill). */
interface LibC extends Library {

    LibC INSTANCE = Native.load("c", LibC.class);

    int ESRCH = 3;
    int SC_CLK_TCK = 2;
    int SC_PAGESIZE = 30;

    /** kill(2): a negative {@code pid} signals every process of group -pid. */
    int kill(int pid, int signal) throws LastErrorException;

    long sysconf(int name);

    /** sched_setaffinity(2): binds process {@code pid} (and what it forks later) to the CPUs set in {@code mask}. */
    int sched_setaffinity(int pid, long cpusetsize, long[] mask) throws LastErrorException;

    int geteuid();

    /** getpwuid(3): null when no passwd entry has this uid. Only compared with null (its buffer is shared). */
    Pointer getpwuid(int uid);
}
