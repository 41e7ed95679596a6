package io.tokenclock.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import io.tokenclock.text.UntrustedText;

/**
 * Which server certificates a run trusts: the JDK's default trust store (the default), the CAs of one PEM file
 * ({@code --ca-cert}), or none at all ({@code --insecure}: no verification, recorded in {@code record.json} and
 * shown in the summary). One rule for both HTTP clients: the Netty client that measures and the JDK client that
 * probes.
 * <p>
 * Immutable and thread-safe.
 *
 * @param caCert   a PEM file of CA certificates to trust instead of the default store, or null.
 * @param insecure trust every certificate and skip host name checks.
 */
public record TlsTrust(Path caCert, boolean insecure)
{
    /** The JDK's default trust store, with host name verification. */
    public static final TlsTrust DEFAULT = new TlsTrust(null, false);

    public TlsTrust
    {
        if (caCert != null && insecure)
        {
            throw new IllegalArgumentException("--ca-cert and --insecure contradict each other: choose one");
        }
        if (caCert != null && !Files.isReadable(caCert))
        {
            throw new IllegalArgumentException("--ca-cert " + caCert + ": no readable file there");
        }
    }

    /** @return how the record describes this trust, e.g. {@code "verified against the JDK's default CAs"}. */
    public String describe()
    {
        return insecure ? "NOT verified (--insecure): any certificate was accepted" :
            caCert != null ? "verified against the CAs in " + caCert.getFileName() + " (--ca-cert)" :
                "verified against the JDK's default CAs";
    }

    /** @return the Netty client context for this trust. */
    public SslContext nettyContext()
    {
        try
        {
            final SslContextBuilder builder = SslContextBuilder.forClient();
            if (insecure)
            {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
            else if (caCert != null)
            {
                builder.trustManager(caCert.toFile());
            }
            return builder.build();
        }
        catch (final SSLException | IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--ca-cert " + caCert + ": not a PEM certificate file (" +
                ex.getMessage() + ")");
        }
    }

    /** @return the JDK client context for this trust (host name checks are the caller's: see {@link #insecure}). */
    public SSLContext jdkContext()
    {
        try
        {
            if (!insecure && caCert == null)
            {
                return SSLContext.getDefault();
            }
            final TrustManager[] managers = insecure ? new TrustManager[] {TRUST_ALL} : trustManagers(caCert);
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, managers, null);
            return context;
        }
        catch (final GeneralSecurityException | IOException ex)
        {
            throw new IllegalArgumentException(caCert == null ? "the JVM's default TLS trust store cannot be loaded " +
                "(check any -Djavax.net.ssl.trustStore* options): " + firstLine(String.valueOf(ex.getMessage())) :
                "--ca-cert " + caCert + ": cannot be used (" + ex.getMessage() + ")");
        }
    }

    private static TrustManager[] trustManagers(final Path pem) throws GeneralSecurityException, IOException
    {
        final KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(pem))
        {
            int i = 0;
            for (final Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in))
            {
                store.setCertificateEntry("ca-" + i++, c);
            }
            if (i == 0)
            {
                throw new GeneralSecurityException("no certificate in the file");
            }
        }
        final TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /**
     * @return a one-line explanation when {@code failure} (or a cause of it) is a TLS failure, naming the fix;
     * null otherwise.
     */
    public static String explain(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t instanceof SSLHandshakeException || t instanceof SSLException)
            {
                final String message = String.valueOf(t.getMessage());
                if (message.contains("PKIX") || message.contains("certificate") || message.contains("unable to find"))
                {
                    return "TLS: the server's certificate is not trusted (" + firstLine(message) + "): give its CA " +
                        "with --ca-cert FILE (PEM), or --insecure to skip verification (recorded in the results)";
                }
                return "TLS handshake failed: " + firstLine(message);
            }
        }
        return null;
    }

    private static String firstLine(final String message)
    {
        // the message may quote the server's certificate (its names are the server's text): escaped
        return UntrustedText.escaped(message.lines().findFirst().orElse(""), 160);
    }

    private static final X509TrustManager TRUST_ALL = new X509TrustManager()
    {
        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType)
        {
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType)
        {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers()
        {
            return new X509Certificate[0];
        }
    };
}
