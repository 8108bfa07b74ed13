package dev.gantry.select.grpc;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.select.placement.ResourceRequest;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pending queue a controller plans against, kept between Plan calls of one {@code queue_session} so that each
 * call carries only the job ids and the requests that are new or changed (select.proto, PlanRequest). One session at a
 * time: a call of another session replaces it. The requests kept are exactly the previous call's queue.
 */
final class PlanQueue {

    private String session = "";
    private Map<Long, ResourceRequest> kept = Map.of();

    /**
     * The requests to place, in queue order: the call's own (mapped and checked, INVALID_ARGUMENT naming the field),
     * else the ones kept from the previous call of the session; NOT_FOUND when an id is in neither.
     */
    synchronized List<ResourceRequest> resolve(PlanRequest request) {
        Map<Long, ResourceRequest> given = new HashMap<>(request.getJobsCount() * 2);
        for (int i = 0; i < request.getJobsCount(); i++) {
            ResourceRequest r = ProtoMapping.toRequest(request.getJobs(i), "jobs[" + i + "]");
            given.put(r.jobId(), r);
        }
        Map<Long, ResourceRequest> previous = request.getQueueSession().equals(session) ? kept : Map.of();
        Map<Long, ResourceRequest> next = new HashMap<>(request.getQueueCount() * 2);
        List<ResourceRequest> queue = new ArrayList<>(request.getQueueCount());
        for (int i = 0; i < request.getQueueCount(); i++) {
            long id = request.getQueue(i);
            ResourceRequest r = given.get(id);
            if (r == null) {
                r = previous.get(id);
            }
            if (r == null) {
                // the session is dropped: the controller sends everything again
                session = "";
                kept = Map.of();
                throw Status.NOT_FOUND.withDescription("queue_session " + request.getQueueSession() + ": job " + id
                        + " is not known (queue[" + i + "]); send its request").asRuntimeException();
            }
            next.put(id, r);
            queue.add(r);
        }
        session = request.getQueueSession();
        kept = next;
        return queue;
    }

    /** Jobs kept for the current session (for tests and the replica's memory figure). */
    synchronized int size() {
        return kept.size();
    }
}
