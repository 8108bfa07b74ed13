package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.scheduler.api.SelectRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.ResourceAsk;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The main pass's side of select.proto's {@code queue_session}: the requests select-svc already holds from the
 * previous Plan call, so that each pass sends the queue as job ids and only the requests that are new or changed.
 * A request changes when the job's partitions, resources or time limit do (what {@link SelectRequests#of} reads).
 * Scheduling thread only.
 */
final class SentQueue {

    private record Sent(List<String> partitions, ResourceAsk ask, long timeLimitSeconds, ResourceRequest request) {
        boolean matches(JobRecord j) {
            return j.timeLimitSeconds() == timeLimitSeconds && j.ask().equals(ask) && j.partitions().equals(partitions);
        }
    }

    private String session = UUID.randomUUID().toString();
    private Map<Long, Sent> sent = new HashMap<>();

    /** Adds the queue (ids in order) and the requests select-svc lacks; what it holds afterwards is this queue. */
    PlanRequest.Builder fill(PlanRequest.Builder request, List<JobRecord> queue) {
        Map<Long, Sent> next = new HashMap<>(queue.size() * 2);
        request.setQueueSession(session);
        for (JobRecord j : queue) {
            Sent s = sent.get(j.id());
            if (s == null || !s.matches(j)) {
                s = new Sent(j.partitions(), j.ask(), j.timeLimitSeconds(), SelectRequests.of(j));
                request.addJobs(s.request());
            }
            next.put(j.id(), s);
            request.addQueue(j.id());
        }
        sent = next;
        return request;
    }

    /** select-svc does not hold this session (it restarted, or missed a call): a new one sends every request again. */
    void forget() {
        session = UUID.randomUUID().toString();
        sent = new HashMap<>();
    }
}
