package io.tokenclock.runner;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;
import io.tokenclock.transport.RequestLimits;

/**
 * One request of the probe, under the same limits as a request of the run ({@link RequestLimits}): the first byte
 * of the response within {@code firstByteNs} of the send, no silence longer than {@code idleNs} once it has started,
 * the whole answer within {@code totalNs} (connecting is the JDK client's {@code connectTimeout}). The JDK's own
 * request timeout covers only the response's headers: a stream that started and then went silent held the probe
 * for as long as the server kept the connection open. And like the run, an event stream ends at its first error
 * event ({@code data: {"error": ...}}), which the run classifies {@code error_event}, rather than waiting for a
 * {@code [DONE]} that may never come.
 * <p>
 * Thread-safety: the JDK client's threads fill it; the caller waits on it ({@link #await}); both under its monitor.
 */
final class ProbeExchange implements HttpResponse.BodyHandler<Void>, HttpResponse.BodySubscriber<Void>
{
    private static final ObjectMapper JSON = Json.MAPPER;

    /** Which limit ended an exchange, and the flag that sets it. */
    enum Limit
    {
        FIRST_BYTE("--first-byte-timeout"), IDLE("--idle-timeout"), TOTAL("--timeout"), WAIT("--wait-ready");

        final String flag;

        Limit(final String flag)
        {
            this.flag = flag;
        }
    }

    /** An exchange that ran out of one of its limits. */
    static final class TimedOut extends Exception
    {
        private static final long serialVersionUID = 1L;
        final transient Limit limit;
        final double afterS;

        TimedOut(final Limit limit, final double afterS)
        {
            super(limit.flag);
            this.limit = limit;
            this.afterS = afterS;
        }
    }

    /**
     * What the server answered.
     *
     * @param statusCode the HTTP status.
     * @param headers    the response's headers.
     * @param body       the body as far as it was kept, UTF-8 (cut at the run's {@code --max-output-bytes}).
     * @param errorEvent the data of the event stream's first error event, or null when it had none.
     */
    record Answer(int statusCode, HttpHeaders headers, String body, String errorEvent)
    {
    }

    private final RequestLimits limits;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final CompletableFuture<Void> bodyDone = new CompletableFuture<>();
    private final StringBuilder line = new StringBuilder();
    private long sentNs;
    private Flow.Subscription subscription;
    private HttpResponse.ResponseInfo info;
    private boolean eventStream;
    private long lastByteNs;
    private boolean done;
    private Throwable failure;
    private String errorEvent;

    ProbeExchange(final RequestLimits limits)
    {
        this.limits = limits;
    }

    /**
     * Sends {@code request} and waits for its whole answer, its first error event, a failure, or a limit.
     *
     * @param capNs a deadline of the caller's (System.nanoTime) beyond the request's own limits, e.g. the end of a
     *              {@code --wait-ready}; {@link Long#MAX_VALUE} for none.
     */
    Answer exchange(final HttpClient http, final HttpRequest request, final long capNs)
        throws Exception
    {
        synchronized (this)
        {
            sentNs = System.nanoTime();
        }
        final CompletableFuture<HttpResponse<Void>> future = http.sendAsync(request, this);
        future.whenComplete((r, ex) -> failed(ex));
        try
        {
            return await(capNs);
        }
        finally
        {
            cancel(future);
        }
    }

    private synchronized Answer await(final long capNs) throws Exception
    {
        while (!done && errorEvent == null)
        {
            final long nowNs = System.nanoTime();
            final Limit limit = nextLimit(capNs);
            final long deadlineNs = deadline(limit, capNs);
            if (nowNs - deadlineNs >= 0)
            {
                throw new TimedOut(limit, (nowNs - sentNs) / 1e9);
            }
            wait(Math.max(1, Math.min(deadlineNs - nowNs, 100_000_000L) / 1_000_000));
        }
        if (failure != null && errorEvent == null)
        {
            throw failure instanceof Exception ex ? ex : new IllegalStateException(failure);
        }
        return new Answer(info.statusCode(), info.headers(), kept.toString(StandardCharsets.UTF_8), errorEvent);
    }

    /** @return the limit that runs out first from here. */
    private Limit nextLimit(final long capNs)
    {
        Limit first = null;
        for (final Limit l : Limit.values())
        {
            if (first == null || deadline(l, capNs) - deadline(first, capNs) < 0)
            {
                first = l;
            }
        }
        return first;
    }

    /** @return when {@code limit} runs out (System.nanoTime); far in the future for a limit that does not apply. */
    private long deadline(final Limit limit, final long capNs)
    {
        final long never = sentNs + Long.MAX_VALUE / 2;
        return switch (limit)
        {
            case FIRST_BYTE -> info == null && limits.firstByteNs() > 0 ? sentNs + limits.firstByteNs() : never;
            case IDLE -> info != null && limits.idleNs() > 0 ? lastByteNs + limits.idleNs() : never;
            case TOTAL -> limits.totalNs() > 0 ? sentNs + limits.totalNs() : never;
            case WAIT -> capNs == Long.MAX_VALUE ? never : capNs;
        };
    }

    private void cancel(final CompletableFuture<HttpResponse<Void>> future)
    {
        final Flow.Subscription s;
        synchronized (this)
        {
            s = done ? null : subscription;
            done = true;
        }
        if (s != null)
        {
            s.cancel();
        }
        future.cancel(true);
    }

    private synchronized void failed(final Throwable ex)
    {
        if (ex != null && !done)
        {
            failure = ex instanceof java.util.concurrent.CompletionException && ex.getCause() != null ?
                ex.getCause() : ex;
            done = true;
            notifyAll();
        }
    }

    @Override
    public synchronized HttpResponse.BodySubscriber<Void> apply(final HttpResponse.ResponseInfo response)
    {
        info = response;
        lastByteNs = System.nanoTime();
        eventStream = response.statusCode() == 200 && response.headers().firstValue("content-type").orElse("")
            .toLowerCase(Locale.ROOT).contains("event-stream");
        notifyAll();
        return this;
    }

    @Override
    public synchronized void onSubscribe(final Flow.Subscription s)
    {
        if (done)
        {
            s.cancel();
            return;
        }
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public synchronized void onNext(final List<ByteBuffer> items)
    {
        lastByteNs = System.nanoTime();
        for (final ByteBuffer b : items)
        {
            final byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            if (kept.size() < limits.maxOutputBytes())
            {
                kept.write(bytes, 0, Math.min(bytes.length, limits.maxOutputBytes() - kept.size()));
            }
            if (eventStream)
            {
                scanForErrorEvent(bytes);
            }
        }
        notifyAll();
    }

    /**
     * Finds the first {@code data:} line that holds a JSON object with an {@code error} member, or of type
     * {@code error} or {@code response.failed} (the Responses API's error events carry no such member).
     */
    private void scanForErrorEvent(final byte[] bytes)
    {
        final String text = new String(bytes, StandardCharsets.UTF_8);
        for (int i = 0; i < text.length() && errorEvent == null; i++)
        {
            final char c = text.charAt(i);
            if (c != '\n' && c != '\r')
            {
                if (line.length() < limits.maxEventBytes())
                {
                    line.append(c);
                }
                continue;
            }
            final String data = line.toString();
            line.setLength(0);
            if (data.startsWith("data:") && isError(data.substring(5).strip()))
            {
                errorEvent = data.substring(5).strip();
            }
        }
    }

    private static boolean isError(final String data)
    {
        if (!data.startsWith("{"))
        {
            return false;
        }
        try
        {
            final JsonNode node = JSON.readTree(data);
            final String type = node.path("type").asText("");
            // chat's {"error": ...}, Anthropic's {"type": "error", "error": ...}, the Responses API's typed failures
            return node.isObject() && (node.has("error") || type.equals("error") || type.equals("response.failed"));
        }
        catch (final java.io.IOException ex)
        {
            return false;
        }
    }

    @Override
    public synchronized void onError(final Throwable ex)
    {
        failed(ex);
    }

    @Override
    public synchronized void onComplete()
    {
        done = true;
        bodyDone.complete(null);
        notifyAll();
    }

    @Override
    public CompletionStage<Void> getBody()
    {
        return bodyDone;
    }
}
