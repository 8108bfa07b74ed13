package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.BackfillSettings;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.SchedulerParameters;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.Peer;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.store.Database;
import dev.gantry.scheduler.store.DatabaseAvailability;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JdbcJobStore;
import dev.gantry.scheduler.store.JdbcStateStore;
import dev.gantry.scheduler.store.LeaseTable;
import dev.gantry.scheduler.lease.LeaseTerms;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StoreException;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import io.grpc.ManagedChannel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and owns scheduler-svc's parts: config, database, writer, event log, agent gateway, controller (which builds
 * the launcher), node tracker, job watch, job steps and the scheduling loop; and the periodic housekeeping. Created at
 * start-up (Micronaut @Context), closed in reverse order at shutdown.
 */
@Context
public final class SchedulerRuntime implements AutoCloseable, ApplicationEventListener<ShutdownEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerRuntime.class);

    private final Database database;
    private final DatabaseAvailability availability;
    private final DatabaseWatch databaseWatch;
    private final GroupCommitWriter writer;
    private final EventLog events;
    private final AgentGateway agents;
    private final Controller controller;
    private final NodeTracker nodes;
    private final ManagedChannel selectChannel;
    private final SchedulingLoop scheduling;
    private final ScheduledExecutorService timer;
    private final JdbcJobStore store;
    private final ControllerLease lease;
    private final JobWatch jobWatch;
    private final RefusalMetrics refusals;
    private final JobSteps steps;
    private final java.util.concurrent.atomic.AtomicBoolean quiesced = new java.util.concurrent.atomic.AtomicBoolean();
    private final Thread quiesceAtExit = new Thread(this::quiesce, "scheduler-quiesce");
    private final java.util.concurrent.ExecutorService responses = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    public SchedulerRuntime(
            MeterRegistry registry,
            InternalChannels channels,
            @Value("${gantry.config}") String configFile,
            @Value("${gantry.state-dir}") String stateDir,
            @Value("${gantry.database.url:}") String databaseUrl,
            @Value("${gantry.database.user:}") String databaseUser,
            @Value("${gantry.database.password:}") String databasePassword,
            @Value("${gantry.select-address}") String selectAddress,
            @Value("${gantry.cred.private-key:}") String privateKey,
            @Value("${gantry.cred.public-key:}") String publicKey,
            @Value("${gantry.handover.pid:0}") long handoverPid,
            @Value("${gantry.handover.file:}") String handoverFile,
            ControllerSettings controllerSettings) throws StoreException, InterruptedException {
        ClusterConfig config = ConfigParser.parse(Path.of(configFile));
        config.warnings().forEach(LOG::warn);
        PreemptSettings.of(config); // refuses the combinations Slurm refuses before anything starts (the controller keeps its own)
        Path state = Path.of(stateDir);
        // a handed-over restart: the JVM and Micronaut started while the old controller served; its database next
        Handover.awaitPredecessor(handoverPid, handoverFile, java.time.Duration.ofSeconds(45));
        this.database = !databaseUrl.isBlank() ? Database.external(databaseUrl, databaseUser, databasePassword, 8)
                : controllerSettings.sharedEmbedded() ? Database.attached(state, 8, java.time.Duration.ofMinutes(2))
                : Database.embedded(state, 8);
        // a standby waits here, serving only its redirect, until it holds the lease: a takeover is this start
        this.lease = new ControllerLease(new LeaseTable(database.dataSource()), controllerSettings.name(),
                controllerSettings.advertise(), LeaseTerms.DEFAULT, registry, SchedulerRuntime::deposed);
        long fencing = controllerSettings.awaitLease(lease,
                SubmissionPolicy.maxMessageBytes(config.get(Keys.SCHEDULER_PARAMETERS).maxScriptBytes()));
        lease.startRenewing(); // before loading the state, which may take longer than the lease lasts
        SchedulerMetrics metrics = new SchedulerMetrics(registry);
        this.availability = new DatabaseAvailability();
        JdbcJobStore writes = new JdbcJobStore(database.dataSource());
        writes.fence(fencing);
        this.writer = new GroupCommitWriter(writes, metrics::committed, availability, e -> deposed(e.getMessage()));
        this.databaseWatch = new DatabaseWatch(database, availability, writer, registry);
        this.events = new EventLog();
        // agents and select-svc are reached on their internal ports, over mutual TLS, and must be who they should be
        // every call carries this controller's fencing number: an agent that has seen a newer one refuses it
        this.agents = new AgentGateway((node, address) -> channels.open(address, new Peer.Node(node)),
                dev.gantry.common.failover.Fencing.stamp(lease::fencing, lease::held));
        Path priv = privateKey.isBlank() ? state.resolve("cred/cred.key") : Path.of(privateKey);
        Path pub = publicKey.isBlank() ? state.resolve("cred/cred.pub") : Path.of(publicKey);
        CredentialSigner signer = new CredentialSigner(CredentialKeys.createIfMissing(priv, pub));
        this.store = new JdbcJobStore(database.dataSource());
        store.fence(fencing);
        this.controller = new Controller(config, store, new JdbcStateStore(database.dataSource()).fence(fencing), writer, events, agents,
                signer, InstantSource.system(), metrics);
        this.refusals = new RefusalMetrics(registry);
        this.jobWatch = controller.jobWatch(
                FeedBudget.ofMegabytes(config.get(Keys.SLURMCTLD_PARAMETERS).watch().bufferMb()), refusals::streamDropped);
        this.steps = controller.steps(store.loadSteps());
        this.nodes = controller.nodes;
        nodes.countWith(new LivenessMetrics(registry));
        metrics.gaugeBacklog(writer::backlog, events::subscriberCount);
        // select-svc, as the agents, refuses a deposed controller's calls
        this.selectChannel = channels.open(selectAddress, Peer.SELECT, SelectClient.SERVICE_CONFIG,
                dev.gantry.common.failover.Fencing.stamp(lease::fencing, lease::held));
        SchedulerParameters scheduler = config.get(Keys.SCHEDULER_PARAMETERS);
        BackfillSettings backfill = "sched/backfill".equals(config.get(Keys.SCHEDULER_TYPE)) ? scheduler.backfill() : null;
        this.scheduling = new SchedulingLoop(controller.passes, selectChannel, scheduler.schedIntervalSeconds() * 1000,
                backfill);
        controller.setScheduleTrigger(scheduling::trigger);
        // no job starts while the database is away (a start not durable could run again after a restart)
        controller.passes.databaseUp = availability::isUp;
        availability.onChange(outage -> {
            if (outage.isEmpty()) {
                scheduling.trigger();
            }
        });
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("controller-timer").daemon(true).factory());
        timer.scheduleWithFixedDelay(() -> controller.run(() -> {
            controller.lifecycle.enforceTimeLimits();
            nodes.checkTimeouts();
            controller.lifecycle.purgeOld();
            steps.sweep();
            metrics.refresh(controller.state);
        }), 1, 1, TimeUnit.SECONDS);
        long calcPeriod = Math.max(1, config.get(Keys.PRIORITY_CALC_PERIOD));
        timer.scheduleWithFixedDelay(() -> controller.run(controller.accounting::recalculatePriorities), calcPeriod, calcPeriod,
                TimeUnit.SECONDS);
        // SIGTERM: streams end at once, while Micronaut's own hook is still stopping its HTTP server (whose event loops
        // wait for their quiet period while streams are open: 2 s of a restart); the ShutdownEvent below comes later
        Runtime.getRuntime().addShutdownHook(quiesceAtExit);
        LOG.info("scheduler-svc ready: epoch {}, fencing number {}, {} nodes, {} partitions, select-svc at {}", events.epoch(),
                fencing, config.nodes().size(), config.partitions().size(), selectAddress);
        scheduling.trigger();
    }

    /** Whether the database commits now; told its changes (health, the gate on calls that need it). */
    public DatabaseAvailability databaseAvailability() {
        return availability;
    }

    /** Exit status of a controller that lost the lease: its supervisor restarts it, as a standby. */
    public static final int EXIT_DEPOSED = 75;

    /**
     * Another controller holds the lease (or may): stop at once, without the graceful shutdown's writes and agent
     * calls, which a deposed controller must not make.
     */
    static void deposed(String why) {
        LOG.error("deposed ({}): exiting with status {} so the supervisor restarts this controller as a standby", why, EXIT_DEPOSED);
        Runtime.getRuntime().halt(EXIT_DEPOSED);
    }

    /** This controller's hold on the lease. */
    public ControllerLease lease() {
        return lease;
    }

    public Controller controller() {
        return controller;
    }

    public NodeTracker nodes() {
        return nodes;
    }

    public EventLog events() {
        return events;
    }

    /** The controller's state: read it on the controller thread only ({@link Controller#call}). */
    public ClusterState state() {
        return controller.state;
    }

    public JobStore store() {
        return store;
    }

    public JobWatch jobWatch() {
        return jobWatch;
    }

    /** Metrics of what the client API refuses (rate limit, stream caps, permission). */
    public RefusalMetrics refusals() {
        return refusals;
    }

    /** Job steps (srun), restored from the database at start. */
    public JobSteps steps() {
        return steps;
    }

    /**
     * Where gRPC responses are completed (and a purged job is looked up in the database): never the
     * controller thread, which only decides.
     */
    public java.util.concurrent.Executor responses() {
        return responses;
    }

    /**
     * The first step of a graceful stop (SIGTERM), run by a JVM exit hook at once and again when Micronaut starts
     * closing (its ShutdownEvent, before any bean is destroyed; whichever comes first does it):
     * no timer runs any more (SlurmdTimeout checks, time limits: a stopping controller sets no node DOWN), no
     * scheduling pass starts, and every stream (event feeds, job watchers) ends, so the gRPC servers, destroyed next,
     * stop at once instead of waiting for their streams. Calls still in flight are answered; {@link #close} then
     * drains the controller, commits what is queued and stops the database last (docs/ARCHITECTURE.md, "Local
     * cluster": graceful restart).
     */
    @Override
    public void onApplicationEvent(ShutdownEvent event) {
        quiesce();
    }

    private void quiesce() {
        if (quiesced.getAndSet(true)) {
            return;
        }
        LOG.info("scheduler-svc stopping: timers and scheduling stopped, {} event stream(s) and {} job watcher(s) ended, {} write(s) to commit",
                events.subscriberCount(), jobWatch.count(), writer.backlog());
        timer.shutdownNow();
        scheduling.close();
        events.close();
        jobWatch.close();
    }

    @PreDestroy
    @Override
    public void close() {
        long started = System.nanoTime();
        quiesce();
        try {
            Runtime.getRuntime().removeShutdownHook(quiesceAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM exits: the hook ran or runs
        }
        responses.shutdown();
        controller.close();
        databaseWatch.close();
        writer.close();
        lease.close(); // after the last write: a standby takes over at once
        selectChannel.shutdownNow();
        agents.close();
        database.close();
        LOG.info("scheduler-svc stopped: controller drained, writes committed, database closed in {} ms",
                (System.nanoTime() - started) / 1_000_000);
    }
}
