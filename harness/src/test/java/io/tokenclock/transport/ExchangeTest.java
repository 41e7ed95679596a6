package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;

/**
 * The exchange alone, under a connection written in the test: what a third transport would add (a reader that stamps
 * bytes, an {@link Exchange.Connection} and an {@link Exchange.Owner}) is all it needs. Each test reads what the exchange asked of the
 * connection, in order.
 */
final class ExchangeTest
{
    private static final long S = 1_000_000_000L;
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";

    private final ManualNanoClock clock = new ManualNanoClock(1_000 * S);
    private final Calls connection = new Calls();
    private final RequestSlot slot = new RequestSlot(0);
    private final Exchange exchange = new Exchange(clock, new ChunkRecords(64 * 1024), noLimits(), Api.CHAT,
        connection, connection);

    /** The connection and its owner: what the exchange asked of them, in words. */
    private static final class Calls implements Exchange.Connection, Exchange.Owner
    {
        final List<String> calls = new ArrayList<>();
        long armedNs = -1;

        @Override
        public void arm(final RequestSlot s, final long armedNs)
        {
            this.armedNs = armedNs;
            calls.add("arm");
        }

        @Override
        public void firstRead()
        {
            calls.add("firstRead");
        }

        @Override
        public void requestEnded(final boolean resending)
        {
            calls.add(resending ? "requestEnded resending" : "requestEnded");
        }

        @Override
        public void reuseOrClose(final boolean keepAlive)
        {
            calls.add(keepAlive ? "reuse" : "reuseOrClose: close");
        }

        @Override
        public void close()
        {
            calls.add("close");
        }

        @Override
        public void retryLater(final RequestSlot s, final long delayNs)
        {
            calls.add("retryLater " + delayNs / S + " s");
        }

        @Override
        public void sendOnNewConnection(final RequestSlot s)
        {
            calls.add("sendOnNewConnection");
        }
    }

    private static RequestLimits noLimits()
    {
        return RequestLimits.of(10, 0, 0, 0, 1 << 20, 16 << 20, 0);
    }

    /** One read carrying {@code text}, stamped now. */
    private void read(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.stamped(clock.nanoTime());
        exchange.read(bytes, 0, bytes.length);
    }

    private void whole(final int status, final String headers, final String body)
    {
        read("HTTP/1.1 " + status + " X\r\n" + headers + "Content-Length: " +
            body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
    }

    @Test
    void shouldStampTheSendAfterArmingTheTimersAndNumberTheConnection()
    {
        final long sentNs = exchange.begin(slot, noLimits(), 7);
        assertEquals(List.of("arm"), connection.calls);
        assertEquals(clock.nanoTime(), sentNs);
        assertEquals(sentNs, slot.sentNs);
        assertEquals(7, slot.connectionId);
        assertTrue(slot.newConnection, "its first request, and not opened ahead");
        exchange.abort(ErrorClass.CANCELLED, "test");
        exchange.begin(slot, noLimits(), 7);
        assertFalse(slot.newConnection, "the second request on it");
    }

    @Test
    void shouldHandTheConnectionBackBeforeItPublishesTheEndOfAStreamedAnswer()
    {
        exchange.begin(slot, RequestLimits.of(10, 0, 1, 0, 1 << 20, 16 << 20, 0), 0);
        clock.advance(S / 2);
        read("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
        final String events = EVENT + "data: [DONE]\n\n";
        read(Integer.toHexString(events.length()) + "\r\n" + events + "\r\n0\r\n\r\n");
        assertEquals(List.of("arm", "firstRead", "requestEnded", "reuse"), connection.calls);
        assertEquals(200, slot.httpStatus);
        assertEquals(ErrorClass.NONE, slot.errorClass);
        assertEquals(1, exchange.contentChunks());
        assertFalse(exchange.active());
    }

    @Test
    void shouldGiveA429ToTheTransportsRetryQueueAndKeepTheConnection()
    {
        exchange.begin(slot, RequestLimits.of(10, 0, 0, 5, 1 << 20, 16 << 20, 1), 0);
        whole(429, "Content-Type: application/json\r\nRetry-After: 2\r\n", "{}");
        assertEquals(List.of("arm", "requestEnded", "reuse", "retryLater 2 s"), connection.calls);
        assertEquals(1, slot.retries429);
        assertEquals(0, slot.httpStatus, "the status is the retry's");
        assertEquals(ErrorClass.NONE, slot.errorClass, "not ended");
    }

    @Test
    void shouldSendAgainOnANewConnectionOnceWhenAKeptOneClosesBeforeAnyByte()
    {
        exchange.markPreopened();
        exchange.begin(slot, noLimits(), 0);
        exchange.closedByPeer();
        assertEquals(List.of("arm", "requestEnded resending", "close", "sendOnNewConnection"), connection.calls);
        assertEquals(1, slot.staleResends);
        assertEquals(ErrorClass.NONE, slot.errorClass, "not ended");
        exchange.begin(slot, noLimits(), 1);
        exchange.closedByPeer();
        assertEquals(ErrorClass.STREAM_CUT, slot.errorClass, "once only");
    }

    @Test
    void shouldEndAsTheFirstLimitThatRunsOutAndCloseTheConnection()
    {
        exchange.begin(slot, RequestLimits.of(10, 1, 0, 0, 1 << 20, 16 << 20, 0), 0);
        assertEquals(connection.armedNs + S, exchange.nextDeadlineNs(), "the first byte's limit, from the arming");
        clock.advance(S / 2);
        assertFalse(exchange.expire(clock.nanoTime()));
        clock.advance(S / 2);
        assertTrue(exchange.expire(clock.nanoTime()));
        assertEquals(ErrorClass.TIMEOUT_FIRST_BYTE, slot.errorClass);
        assertEquals(List.of("arm", "requestEnded", "close"), connection.calls);
        assertEquals(Long.MAX_VALUE, exchange.nextDeadlineNs(), "nothing in flight");
    }

    @Test
    void shouldClassAReplyThatIsNotHttpAsAProtocolErrorAndCloseOnlyOnce()
    {
        exchange.begin(slot, noLimits(), 0);
        read("SSH-2.0-OpenSSH_9.6\r\n\r\n");
        assertEquals(ErrorClass.PROTOCOL, slot.errorClass);
        assertEquals(List.of("arm", "requestEnded", "close"), connection.calls);
        read("more");
        assertEquals(List.of("arm", "requestEnded", "close", "close"), connection.calls,
            "bytes on an idle connection close it, and end nothing");
    }
}
