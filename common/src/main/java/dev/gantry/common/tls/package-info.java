/**
 * Service identity: mutual TLS between Gantry's services (docs/security.md, "Service identity").
 *
 * <p><b>Data.</b> One cluster CA ({@link dev.gantry.common.tls.ClusterCa}); one certificate per service
 * (scheduler-svc, select-svc, gang-svc) and one per node agent, each naming its {@link dev.gantry.common.tls.Peer} in a
 * URI subject alternative name ({@code urn:gantry:service:NAME}, {@code urn:gantry:node:NAME}). A process loads its CA,
 * certificate and key once ({@link dev.gantry.common.tls.ServiceTls}).
 *
 * <p><b>Servers.</b> Each service serves its internal API on an {@link dev.gantry.common.tls.InternalServer} of its own
 * port: TLS 1.3, client certificate required and validated under the CA alone, then each call admitted by its method's
 * or service's {@link dev.gantry.common.tls.PeerAdmission}; handlers read the caller with
 * {@link dev.gantry.common.tls.PeerAccess#current()} and check what depends on the request (an agent speaks only for its
 * own node: {@link dev.gantry.common.tls.PeerAccess#speaksFor}).
 *
 * <p><b>Clients.</b> {@link dev.gantry.common.tls.InternalChannels} opens long-lived channels that present the process's
 * certificate and accept only the peer they mean to reach, which replaces host-name checks (agents' addresses are pod IPs).
 */
package dev.gantry.common.tls;
