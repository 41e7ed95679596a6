package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;

/**
 * The Netty adapter alone, in an {@link EmbeddedChannel} whose event-loop time is frozen and stepped together with a
 * hand-set clock: each timeout class, the 429 retry and the not-streaming answer, without a socket or a sleep.
 */
final class ResponseHandlerEmbeddedTest
{
    private static final long S = 1_000_000_000L;
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";

    private final ManualNanoClock clock = new ManualNanoClock(1_000 * S);
    private final Owner owner = new Owner();
    private final RequestSlot slot = new RequestSlot(0);
    private EmbeddedChannel channel;
    private ResponseHandler handler;

    /** The client side of the handler: what it asked for. */
    private static final class Owner implements ConnectionOwner
    {
        int ended;
        int released;
        final List<Long> retryDelaysNs = new ArrayList<>();

        @Override
        public void send(final ResponseHandler h, final RequestSlot s)
        {
        }

        @Override
        public void release(final ResponseHandler h)
        {
            released++;
        }

        @Override
        public void onRequestEnded(final ResponseHandler h)
        {
            ended++;
        }

        @Override
        public void retryLater(final RequestSlot s, final long delayNs)
        {
            retryDelaysNs.add(delayNs);
        }
    }

    private void start(final double firstByteS, final double idleS, final double totalS, final int retries)
    {
        final RequestLimits limits = RequestLimits.of(10, firstByteS, idleS, totalS, 1 << 20, 16 << 20, retries);
        channel = new EmbeddedChannel();
        channel.freezeTime();
        handler = new ResponseHandler(clock, new ChunkRecords(64 * 1024), owner, channel, 0, limits);
        channel.pipeline().addLast(handler.stamper(), handler);
        handler.begin(slot, limits);
    }

    /** Moves both clocks by {@code ns} and runs what came due. */
    private void step(final long ns)
    {
        clock.advance(ns);
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    private static HttpResponse head(final int status, final String type)
    {
        final HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        return r;
    }

    private void content(final String text)
    {
        channel.writeInbound(new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
    }

    @AfterEach
    void close()
    {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldEndWithTimeoutFirstByteWhenNothingComesInTime()
    {
        start(1, 0, 0, 0);
        step(S / 2);
        assertEquals(0, owner.ended, "half the limit: still waiting");
        step(S / 2);
        assertEquals(1, owner.ended);
        assertEquals(ErrorClass.TIMEOUT_FIRST_BYTE, slot.errorClass);
        assertFalse(channel.isOpen(), "the connection is closed");
    }

    @Test
    void shouldEndWithTimeoutIdleWhenTheStreamGoesSilentAfterItStarted()
    {
        start(0, 1, 0, 0);
        channel.writeInbound(head(200, "text/event-stream"));
        step(S * 9 / 10);
        content(EVENT);
        step(S * 9 / 10);
        assertEquals(0, owner.ended, "0.9 s since the last read");
        step(S / 10);
        assertEquals(ErrorClass.TIMEOUT_IDLE, slot.errorClass);
        assertEquals(1, owner.ended);
    }

    @Test
    void shouldEndWithTimeoutTotalEvenWhileBytesKeepComing()
    {
        start(0, 1, 2, 0);
        channel.writeInbound(head(200, "text/event-stream"));
        for (int i = 0; i < 3; i++)
        {
            step(S / 2);
            content(EVENT);
        }
        assertEquals(0, owner.ended);
        step(S / 2);
        assertEquals(ErrorClass.TIMEOUT_TOTAL, slot.errorClass);
    }

    @Test
    void shouldRetryA429AfterItsRetryAfterInsteadOfEndingIt()
    {
        start(0, 0, 5, 1);
        final HttpResponse busy = head(429, "application/json");
        busy.headers().set(HttpHeaderNames.RETRY_AFTER, "2");
        channel.writeInbound(busy, new DefaultLastHttpContent(Unpooled.copiedBuffer("{}", StandardCharsets.UTF_8)));
        assertEquals(List.of(2 * S), owner.retryDelaysNs);
        assertEquals(1, slot.retries429);
        assertEquals(1, owner.released, "the connection goes back to the pool");
        assertEquals(ErrorClass.NONE, slot.errorClass, "not ended");
        assertEquals(1, owner.ended, "the connection no longer carries it");
        step(10 * S);
        assertEquals(ErrorClass.NONE, slot.errorClass, "the 5 s total timer was stopped with the retry");
        assertEquals(1, owner.ended);
    }

    @Test
    void shouldClassAJsonAnswerToAStreamingRequestAsNotStreaming()
    {
        start(0, 0, 0, 0);
        channel.writeInbound(head(200, "application/json"),
            new DefaultLastHttpContent(Unpooled.copiedBuffer("{\"choices\":[]}", StandardCharsets.UTF_8)));
        assertEquals(ErrorClass.NOT_STREAMING, slot.errorClass);
        assertTrue(slot.errorDetail.contains("{\"choices\":[]}"), slot.errorDetail);
    }
}
