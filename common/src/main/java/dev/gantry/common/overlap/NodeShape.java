package dev.gantry.common.overlap;

/** A node as overlap needs it: CPUs (CR_CPU counts them) and cores per socket (CR_Socket maps core ids to sockets). */
public record NodeShape(String name, int cpus, int coresPerSocket) {

    public NodeShape {
        cpus = Math.max(cpus, 1);
        coresPerSocket = Math.max(coresPerSocket, 1);
    }
}
