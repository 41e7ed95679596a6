package io.tokenclock.telemetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;

/** Fetches a {@code /metrics} page: one blocking HTTP GET on the calling thread. */
@FunctionalInterface
public interface MetricsFetcher
{
    /** The most bytes of one page kept; a larger one is a failed scrape. */
    int MAX_BYTES = 16 << 20;

    /**
     * An answer.
     *
     * @param status the HTTP status.
     * @param body   the body's bytes, whole, at most {@link #MAX_BYTES}.
     */
    record Response(int status, byte[] body)
    {
    }

    /** @return the answer; any HTTP status, the caller decides. */
    Response fetch() throws IOException;

    /**
     * A fetcher over the JDK's {@link HttpURLConnection}: no proxy, no cache, no credentials (the target's API key is
     * never sent to the metrics URL), asking for the text format 0.0.4.
     *
     * @param url              the metrics URL, http or https.
     * @param tls              the TLS context of https URLs (the run's trust), or null for the JDK's default.
     * @param verifyHostnames  false only when the run accepts any certificate ({@code --insecure}).
     * @param timeoutMs        the connect and the read timeout, ms.
     */
    static MetricsFetcher http(final URI url, final SSLContext tls, final boolean verifyHostnames, final int timeoutMs)
    {
        return () ->
        {
            final HttpURLConnection c = (HttpURLConnection)url.toURL().openConnection(Proxy.NO_PROXY);
            c.setConnectTimeout(timeoutMs);
            c.setReadTimeout(timeoutMs);
            c.setUseCaches(false);
            c.setInstanceFollowRedirects(false);
            c.setRequestProperty("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1");
            if (c instanceof HttpsURLConnection https)
            {
                if (tls != null)
                {
                    https.setSSLSocketFactory(tls.getSocketFactory());
                }
                if (!verifyHostnames)
                {
                    https.setHostnameVerifier((host, session) -> true);
                }
            }
            // The body is read whole, so the JDK keeps the connection for the next scrape.
            final int status = c.getResponseCode();
            try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream())
            {
                return new Response(status, in == null ? new byte[0] : readCapped(in));
            }
        };
    }

    private static byte[] readCapped(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(64 << 10);
        final byte[] buffer = new byte[16 << 10];
        int n;
        while ((n = in.read(buffer)) >= 0)
        {
            if (out.size() + n > MAX_BYTES)
            {
                throw new IOException("metrics page larger than " + (MAX_BYTES >> 20) + " MiB");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }
}
