package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.lease.Lease;
import dev.gantry.scheduler.lease.LeaseRules;
import dev.gantry.scheduler.lease.LeaseTerms;
import dev.gantry.scheduler.store.LeaseTable;
import dev.gantry.scheduler.store.StoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This controller's hold on the controller lease (rules in {@code scheduler.lease}, table in {@link LeaseTable}):
 * {@link #await} waits as a standby until it takes the lease, {@link #startRenewing} keeps it. Without a successful
 * renewal for the lease's ttl by this process's monotonic clock (as after a SIGSTOP), {@link #held} says no: agent calls
 * are refused before they are sent, until a renewal shows the row still holds this controller's fencing number.
 * Losing the lease (another controller's fencing number in the row) calls {@code onDeposed} once: the runtime halts
 * the process, which its supervisor restarts as a standby. Thread-safe.
 */
public final class ControllerLease implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerLease.class);

    private final LeaseTable table;
    private final String name;
    private final String address;
    private final LeaseTerms terms;
    private final Consumer<String> onDeposed;
    private final AtomicReference<Lease> active = new AtomicReference<>();
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("controller-lease").daemon(true).factory());
    private final Counter renewalFailures;
    private volatile long fencing;
    /** The monotonic clock's reading when the last successful renewal (or the take) was sent. */
    private volatile long lastRenewalSent;
    private volatile boolean deposed;
    private final java.util.function.LongSupplier nanos;

    /**
     * @param name      this controller's name, unique among the controllers on the database (GANTRY_CONTROLLER_NAME)
     * @param address   where this controller's clients reach it (its public gRPC address), the standby's redirect
     * @param onDeposed told why, once, when the lease is lost (on the renewal thread)
     */
    public ControllerLease(LeaseTable table, String name, String address, LeaseTerms terms, MeterRegistry registry,
            Consumer<String> onDeposed) {
        this(table, name, address, terms, registry, onDeposed, System::nanoTime);
    }

    /** @param nanos the monotonic clock the lease's own expiry is judged by */
    ControllerLease(LeaseTable table, String name, String address, LeaseTerms terms, MeterRegistry registry,
            Consumer<String> onDeposed, java.util.function.LongSupplier nanos) {
        this.nanos = nanos;
        this.table = table;
        this.name = name;
        this.address = address;
        this.terms = terms;
        this.onDeposed = onDeposed;
        Gauge.builder("gantry_controller_fencing", () -> fencing)
                .description("This controller's fencing number (0 while it is a standby)").register(registry);
        Gauge.builder("gantry_controller_active", () -> fencing > 0 && !deposed ? 1 : 0)
                .description("1 while this controller holds the controller lease, 0 as a standby").register(registry);
        this.renewalFailures = Counter.builder("gantry_controller_lease_renewal_failures_total")
                .description("Lease renewals that failed (database unreachable); the lease is lost after its ttl")
                .register(registry);
    }

    /**
     * Takes the lease, waiting as a standby while another controller holds it; each time it finds the lease held it
     * tells {@code standby} the holder (first call: start answering as a standby). Returns the fencing number.
     */
    public long await(Consumer<Lease> standby) throws InterruptedException {
        long waitingSince = nanos.getAsLong();
        while (true) {
            long sent = nanos.getAsLong();
            try {
                LeaseRules.Claim claim = table.claim(name, address, terms);
                switch (claim) {
                    case LeaseRules.Claim.Take take -> {
                        this.lastRenewalSent = sent;
                        this.fencing = take.lease().fencing();
                        if (active.get() != null) {
                            LOG.warn("took over the controller lease from {} ({} at {}) after {} ms as a standby: fencing number {}",
                                    active.get().holder(), active.get().address(), active.get().expiresAt(),
                                    (nanos.getAsLong() - waitingSince) / 1_000_000, fencing);
                        } else {
                            LOG.info("holds the controller lease as {}: fencing number {}", name, fencing);
                        }
                        active.set(take.lease());
                        return fencing;
                    }
                    case LeaseRules.Claim.Wait wait -> {
                        if (active.get() == null || !active.get().holder().equals(wait.active().holder())) {
                            LOG.info("standby: the controller lease is held by {} at {} (fencing {}), until {}",
                                    wait.active().holder(), wait.active().address(), wait.active().fencing(), wait.active().expiresAt());
                        }
                        active.set(wait.active());
                        standby.accept(wait.active());
                    }
                }
            } catch (StoreException e) {
                LOG.warn("standby: {}", e.getMessage());
            }
            Thread.sleep(terms.pollEvery().toMillis());
        }
    }

    /** The lease as last seen: the active controller's while this one waits. */
    public Lease lastSeen() {
        return active.get();
    }

    /** This controller's fencing number (0 before {@link #await} returned). */
    public long fencing() {
        return fencing;
    }

    /** Renews every {@code renewEvery} from now on. */
    public void startRenewing() {
        long period = terms.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    /** False once the lease may be another's: this controller must launch and write nothing more. */
    public boolean held() {
        return fencing > 0 && !deposed && !LeaseRules.selfExpired(Duration.ofNanos(nanos.getAsLong() - lastRenewalSent), terms);
    }

    /**
     * Renews the lease. When the lease has run out by this process's own clock (resumed after a SIGSTOP, or a database
     * away for longer than the ttl), {@link #held} has said no since then, so nothing was launched or written; the
     * renewal then tells whether another controller took the lease meanwhile (its fencing number in the row: deposed) or
     * nobody did (the row still ours: renewed, and this controller goes on, as a lone controller must after a pause).
     */
    private void renew() {
        if (deposed) {
            return;
        }
        long sent = nanos.getAsLong();
        long silent = sent - lastRenewalSent;
        boolean expired = LeaseRules.selfExpired(Duration.ofNanos(silent), terms);
        try {
            if (table.renew(fencing, terms)) {
                lastRenewalSent = sent;
                if (expired) {
                    LOG.warn("no renewal of the controller lease for {} ms (it lasts {} ms), but no other controller took it: "
                            + "renewed, fencing number still {}", silent / 1_000_000, terms.ttl().toMillis(), fencing);
                }
            } else {
                depose("the controller lease has another fencing number than " + fencing + ": another controller took over");
            }
        } catch (StoreException e) {
            renewalFailures.increment();
            LOG.warn("{}{}", e.getMessage(), expired ? " (the lease has run out by this controller's clock: it launches and "
                    + "writes nothing until a renewal shows the lease is still its own)" : "");
        }
    }

    private void depose(String why) {
        deposed = true;
        LOG.error("deposed: {}; stopping", why);
        onDeposed.accept(why);
    }

    /** Stops renewing and, if still held, lets the lease expire now so a standby takes over at once (graceful stop). */
    @Override
    public void close() {
        renewer.shutdownNow();
        if (fencing > 0 && !deposed) {
            try {
                table.release(fencing);
            } catch (StoreException e) {
                LOG.warn("{}", e.getMessage());
            }
        }
    }
}
