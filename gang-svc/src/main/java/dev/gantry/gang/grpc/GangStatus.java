package dev.gantry.gang.grpc;

import dev.gantry.gang.model.GangView;

/** What GetGangState reports: the replica, and the allocation events applied since gang-svc started. */
public record GangStatus(GangView view, long eventsApplied) {}
