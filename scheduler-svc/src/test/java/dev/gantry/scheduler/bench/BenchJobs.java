package dev.gantry.scheduler.bench;

import dev.gantry.api.v1.JobSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The jobs the submission benchmark sends: what sbatch sends for a small batch job — a script with #SBATCH lines,
 * the user's environment (30 variables, as {@code --export=ALL} carries it), a work directory, one task, a time
 * limit. Job {@code i} is named {@code bench-i} so the durability check can match rows to submissions.
 */
final class BenchJobs {
    private BenchJobs() {}

    static final int ENVIRONMENT_SIZE = 30;

    private static final String SCRIPT = """
            #!/bin/bash
            #SBATCH --job-name=analysis
            #SBATCH --ntasks=1
            #SBATCH --cpus-per-task=1
            #SBATCH --mem=1G
            #SBATCH --time=01:00:00
            #SBATCH --output=logs/%x-%j.out
            set -euo pipefail
            module load python/3.12
            cd "$SLURM_SUBMIT_DIR"
            echo "task $SLURM_JOB_ID on $(hostname) started at $(date --iso-8601=seconds)"
            python3 analyse.py --input data/sample-${SLURM_JOB_ID}.csv --output results/${SLURM_JOB_ID}.json
            echo done
            """;

    /** Job {@code i} of client {@code client}; each client submits as its own user. */
    static JobSpec job(int i, int client) {
        String user = "user" + client;
        String home = "/home/" + user;
        return JobSpec.newBuilder()
                .setName("bench-" + i)
                .setScript(SCRIPT)
                .setWorkDir(home + "/project")
                .setSubmitDir(home + "/project")
                .setSubmitHost("login1")
                .setUser(user)
                .setUid(10_000 + client)
                .setGid(10_000)
                .setNtasks(1)
                .setCpusPerTask(1)
                .setMemPerNodeMb(1024)
                .setTimeLimitSeconds(3600)
                .putAllEnvironment(environment(user, home))
                .build();
    }

    private static Map<String, String> environment(String user, String home) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("USER", user);
        env.put("LOGNAME", user);
        env.put("HOME", home);
        env.put("SHELL", "/bin/bash");
        env.put("PWD", home + "/project");
        env.put("OLDPWD", home);
        env.put("PATH", home + "/.local/bin:/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("LANG", "en_US.UTF-8");
        env.put("LC_ALL", "en_US.UTF-8");
        env.put("TERM", "xterm-256color");
        env.put("HOSTNAME", "login1");
        env.put("EDITOR", "vim");
        env.put("PAGER", "less");
        env.put("TMPDIR", "/tmp");
        env.put("MAIL", "/var/mail/" + user);
        env.put("SSH_CONNECTION", "10.0.0.15 51234 10.0.0.2 22");
        env.put("SSH_CLIENT", "10.0.0.15 51234 22");
        env.put("SSH_TTY", "/dev/pts/3");
        env.put("XDG_SESSION_ID", "4711");
        env.put("XDG_RUNTIME_DIR", "/run/user/" + user);
        env.put("MODULEPATH", "/etc/modulefiles:/usr/share/modulefiles:/opt/modulefiles");
        env.put("MODULESHOME", "/usr/share/modules");
        env.put("LOADEDMODULES", "gcc/13.2:openmpi/4.1.6:python/3.12");
        env.put("LD_LIBRARY_PATH", "/opt/openmpi/4.1.6/lib:/opt/gcc/13.2/lib64");
        env.put("MANPATH", "/opt/openmpi/4.1.6/share/man:/usr/share/man");
        env.put("OMP_NUM_THREADS", "1");
        env.put("CONDA_DEFAULT_ENV", "analysis");
        env.put("CONDA_PREFIX", "/opt/conda/envs/analysis");
        env.put("PYTHONPATH", home + "/project/src");
        env.put("PROJECT", "climate-2026");
        return env;
    }
}
