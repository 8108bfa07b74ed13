package dev.gantry.common.tls;

import io.grpc.ServerBuilder;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyServerBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * TLS for a public gRPC server (the client API): a server certificate, no client certificate (users authenticate on
 * every call with their own credentials). TLS 1.3 or 1.2, for clients in other languages.
 */
public final class PublicServerTls {

    private PublicServerTls() {}

    /**
     * Makes {@code builder} (grpc-java's Netty server builder) serve TLS with the certificate chain and key in these
     * files, named in errors by the variables that set them.
     *
     * @return the certificate presented
     * @throws TlsConfigurationException naming the variable and the file
     */
    public static X509Certificate apply(ServerBuilder<?> builder, String certVariable, Path certificate, String keyVariable, Path key) {
        List<X509Certificate> chain;
        PrivateKey privateKey;
        try {
            chain = PemFiles.readCertificates(certificate);
        } catch (IOException e) {
            throw new TlsConfigurationException(certVariable + "=" + certificate + ": " + e.getMessage(), e);
        }
        try {
            privateKey = PemFiles.readPrivateKey(key);
        } catch (IOException e) {
            throw new TlsConfigurationException(keyVariable + "=" + key + ": " + e.getMessage(), e);
        }
        if (!ClusterCa.Keys.match(privateKey, chain.get(0).getPublicKey())) {
            throw new TlsConfigurationException(keyVariable + "=" + key + ": not the key of " + certVariable + "=" + certificate);
        }
        if (!(builder instanceof NettyServerBuilder netty)) {
            throw new IllegalStateException("the gRPC server is not Netty's: cannot serve TLS on it");
        }
        try {
            netty.sslContext(GrpcSslContexts.configure(SslContextBuilder.forServer(privateKey, chain.toArray(X509Certificate[]::new)))
                    .protocols("TLSv1.3", "TLSv1.2").build());
        } catch (IOException e) {
            throw new TlsConfigurationException(certVariable + "=" + certificate + ": " + e.getMessage(), e);
        }
        return chain.get(0);
    }
}
