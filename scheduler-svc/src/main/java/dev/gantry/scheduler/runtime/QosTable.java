package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ListQosResponse;
import dev.gantry.api.v1.Qos;
import dev.gantry.common.config.Accounting;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.QosConfig;
import dev.gantry.scheduler.api.QosProtos;
import dev.gantry.scheduler.store.StateStore;
import dev.gantry.scheduler.store.StoreException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QOS in force: the config's QOS= lines, overridden by QOS created or replaced through the admin API, which
 * are kept in the database (as Slurm keeps QOS in its accounting database) and so survive restarts. Controller
 * thread only.
 */
public final class QosTable {

    private static final Logger LOG = LoggerFactory.getLogger(QosTable.class);
    private static final String QOS_EDITS = "qos-edits";

    /** A QOS change the caller may not make, or that is malformed; nothing changed. */
    public static final class RefusedChange extends RuntimeException {
        public final boolean denied;

        public RefusedChange(String message, boolean denied) {
            super(message, null, false, false);
            this.denied = denied;
        }
    }

    private final StateStore store;
    /** The config's accounting with the edits applied (each checked by {@link Accounting#withQos}). */
    private Accounting accounting;
    private final Map<String, QosConfig> edits = new LinkedHashMap<>();

    QosTable(ClusterConfig config, StateStore store) throws StoreException {
        this.store = store;
        this.accounting = config.accounting();
        var saved = store.get(QOS_EDITS);
        if (saved.isEmpty()) {
            return;
        }
        try {
            for (Qos q : ListQosResponse.parseFrom(saved.get()).getQosList()) {
                QosConfig c = QosProtos.fromProto(q);
                accounting = accounting.withQos(c); // replayed in the order they were made, each valid then
                edits.put(c.name(), c);
            }
        } catch (com.google.protobuf.InvalidProtocolBufferException | IllegalArgumentException e) {
            throw new StoreException("stored QOS edits are unreadable: " + e.getMessage(), e);
        }
        LOG.info("{} QOS edited through the API override the config", edits.size());
    }

    /** By name, in config order (edited ones where they were, new ones last). */
    Map<String, QosConfig> all() {
        return accounting.qos();
    }

    /** The config's accounts and users with the QOS in force. */
    Accounting accounting() {
        return accounting;
    }

    List<QosConfig> list(List<String> names) {
        return accounting.qos().values().stream().filter(q -> names.isEmpty() || names.contains(q.name())).toList();
    }

    /**
     * Checks, stores durably, then applies an edited QOS.
     *
     * @param check told the accounting the edit would make; throws IllegalArgumentException to refuse it (a
     *     preemption cycle between QOS, say)
     */
    QosConfig update(Qos edited, Consumer<Accounting> check) {
        QosConfig q;
        Accounting next;
        try {
            q = QosProtos.fromProto(edited);
            next = accounting.withQos(q);
            check.accept(next);
        } catch (IllegalArgumentException e) {
            throw new RefusedChange(e.getMessage(), false);
        }
        Map<String, QosConfig> nextEdits = new LinkedHashMap<>(edits);
        nextEdits.put(q.name(), q);
        ListQosResponse.Builder all = ListQosResponse.newBuilder();
        nextEdits.values().forEach(c -> all.addQos(QosProtos.toProto(c)));
        try {
            store.put(QOS_EDITS, all.build().toByteArray());
        } catch (StoreException e) {
            throw new CompletionException(e);
        }
        edits.put(q.name(), q);
        accounting = next;
        return q;
    }
}
