package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import io.tokenclock.api.Api;
import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;

/**
 * The Netty adapter alone, in an {@link EmbeddedChannel} whose event-loop time is frozen and stepped together with a
 * hand-set clock: each timeout class, the 429 retry and the not-streaming answer, without a socket or a sleep; and
 * the reads themselves, which the handler decodes with {@link HttpResponseDecoder} from heap, direct and composite
 * buffers alike.
 */
final class ResponseHandlerEmbeddedTest
{
    private static final long S = 1_000_000_000L;
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    private final ManualNanoClock clock = new ManualNanoClock(1_000 * S);
    private final Owner owner = new Owner();
    private final RequestSlot slot = new RequestSlot(0);
    private final ChunkRecords records = new ChunkRecords(64 * 1024);
    private EmbeddedChannel channel;
    private ResponseHandler handler;

    /** The client side of the handler: what it asked for. */
    private static final class Owner implements ConnectionOwner
    {
        int ended;
        int released;
        final List<Long> retryDelaysNs = new ArrayList<>();
        final List<RequestSlot> resentOnNewConnection = new ArrayList<>();

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

        @Override
        public void sendOnNewConnection(final RequestSlot s)
        {
            resentOnNewConnection.add(s);
        }
    }

    private void start(final double firstByteS, final double idleS, final double totalS, final int retries)
    {
        start(false, RequestLimits.of(10, firstByteS, idleS, totalS, 1 << 20, 16 << 20, retries));
    }

    /** @param kept whether the connection was opened before its request (as a reused or pre-opened one is). */
    private void start(final boolean kept, final RequestLimits limits)
    {
        channel = new EmbeddedChannel();
        channel.freezeTime();
        handler = new ResponseHandler(clock, records, owner, channel, 0, limits, Api.CHAT);
        channel.pipeline().addLast(handler.stamper(), handler);
        if (kept)
        {
            handler.markPreopened();
        }
        handler.begin(slot, limits);
    }

    private static RequestLimits noLimits()
    {
        return RequestLimits.of(10, 0, 0, 0, 1 << 20, 16 << 20, 0);
    }

    @Test
    void shouldSendARequestAgainOnANewConnectionWhenItsKeptConnectionClosedBeforeAnyByte()
    {
        start(true, noLimits());
        channel.close();
        assertEquals(List.of(slot), owner.resentOnNewConnection, "sent again, on a connection opened for it");
        assertEquals(1, slot.staleResends);
        assertEquals(ErrorClass.NONE, slot.errorClass, "not ended");
        assertEquals(1, owner.ended, "this connection no longer carries it");
        assertEquals(0, owner.released, "a closed connection goes back to no pool");
    }

    @Test
    void shouldEndAsStreamCutWhenTheConnectionOpenedForTheRequestClosesBeforeAnyByte()
    {
        start(false, noLimits());
        channel.close();
        assertEquals(List.of(), owner.resentOnNewConnection, "a new connection's close is the server's failure");
        assertEquals(ErrorClass.STREAM_CUT, slot.errorClass);
    }

    @Test
    void shouldEndAsStreamCutWhenAKeptConnectionClosesAfterTheAnswerBegan()
    {
        start(true, noLimits());
        read("HTTP/1.1 2");
        channel.close();
        assertEquals(List.of(), owner.resentOnNewConnection, "the server had begun to answer: never sent twice");
        assertEquals(ErrorClass.STREAM_CUT, slot.errorClass);
    }

    @Test
    void shouldSendARequestAgainOnANewConnectionOnceOnly()
    {
        slot.staleResends = 1;
        start(true, noLimits());
        channel.close();
        assertEquals(List.of(), owner.resentOnNewConnection);
        assertEquals(ErrorClass.STREAM_CUT, slot.errorClass);
    }

    @Test
    void shouldSendARequestAgainOnANewConnectionWhenItsKeptConnectionWasReset()
    {
        start(true, noLimits());
        channel.pipeline().fireExceptionCaught(new java.io.IOException("Connection reset by peer"));
        assertEquals(List.of(slot), owner.resentOnNewConnection);
        assertFalse(channel.isOpen());
    }

    /** Moves both clocks by {@code ns} and runs what came due. */
    private void step(final long ns)
    {
        clock.advance(ns);
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    /** One network read carrying {@code text}, as the socket would hand it on. */
    private void read(final String text)
    {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    /** The head of a chunked answer. */
    private void head(final int status, final String type)
    {
        read("HTTP/1.1 " + status + " X\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n\r\n");
    }

    /** One HTTP chunk holding {@code text}. */
    private void content(final String text)
    {
        read(Integer.toHexString(text.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + text + "\r\n");
    }

    /** A whole answer framed by its Content-Length, in one read. */
    private void whole(final int status, final String headers, final String body)
    {
        read("HTTP/1.1 " + status + " X\r\n" + headers + "Content-Length: " +
            body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
    }

    @AfterEach
    void close()
    {
        if (channel != null) // the copy's test opens none
        {
            channel.finishAndReleaseAll();
        }
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
        head(200, "text/event-stream");
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
        head(200, "text/event-stream");
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
        whole(429, "Content-Type: application/json\r\nRetry-After: 2\r\n", "{}");
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
        whole(200, "Content-Type: application/json\r\n", "{\"choices\":[]}");
        assertEquals(ErrorClass.NOT_STREAMING, slot.errorClass);
        assertTrue(slot.errorDetail.contains("{\"choices\":[]}"), slot.errorDetail);
    }

    /** @return the arrival stamps of the chunk records published so far, read off the ring as the collector would. */
    private List<Long> chunkStamps()
    {
        final List<Long> stamps = new ArrayList<>();
        records.ring().read((type, buffer, index, length) ->
        {
            if (type == ChunkRecords.MSG_CHUNK)
            {
                stamps.add(buffer.getLong(index + ChunkRecords.NS_OFFSET));
            }
        });
        return stamps;
    }

    private static ByteBuf direct(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    }

    @Test
    void shouldDecodeOneAnswerFromHeapDirectAndCompositeReadsWithEachReadsStamp()
    {
        start(0, 0, 0, 0);
        head(200, "text/event-stream");
        final String chunk = Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n";
        step(S);
        final long firstNs = clock.nanoTime();
        channel.writeInbound(direct(chunk));
        step(S);
        final long secondNs = clock.nanoTime();
        final CompositeByteBuf split = Unpooled.compositeBuffer();
        split.addComponent(true, direct(chunk.substring(0, 7)));
        split.addComponent(true, direct(chunk.substring(7) + Integer.toHexString(DONE.length()) + "\r\n" + DONE +
            "\r\n0\r\n\r\n"));
        assertTrue(split.nioBufferCount() > 1, "a buffer without one NIO view: the copy's fallback");
        channel.writeInbound(split);
        assertEquals(1, owner.ended);
        assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
        assertEquals(List.of(firstNs, secondNs), chunkStamps(), "each chunk with its own read's stamp");
        assertEquals(1, owner.released, "kept alive: back to the pool");
    }

    @Test
    void shouldEndABodyThatRunsUntilTheCloseWhenTheConnectionCloses()
    {
        start(0, 0, 0, 0);
        read("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + EVENT + DONE);
        assertEquals(0, owner.ended, "no framing: the body lasts until the close");
        channel.close();
        assertEquals(1, owner.ended);
        assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
        assertEquals(1, chunkStamps().size());
    }

    @Test
    void shouldClassAReplyThatIsNotHttpAsAProtocolErrorAndClose()
    {
        start(0, 0, 0, 0);
        read("SSH-2.0-OpenSSH_9.2\r\n");
        assertEquals(ErrorClass.PROTOCOL, slot.errorClass);
        assertTrue(slot.errorDetail.startsWith("the server's reply is not valid HTTP: "), slot.errorDetail);
        assertFalse(channel.isOpen());
    }

    @Test
    void shouldCloseAConnectionThatSendsBytesWhileNoRequestIsOnIt()
    {
        start(0, 0, 0, 0);
        whole(200, "Content-Type: text/event-stream\r\n", EVENT + DONE);
        assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
        assertTrue(channel.isOpen(), "kept alive");
        read("HTTP/1.1 200 OK\r\n");
        assertFalse(channel.isOpen(), "bytes that belong to no request: the connection is not reused");
    }

    @Test
    void shouldCopyEveryLengthOfADirectReadExactlyOnEitherSideOfTheViewlessLimit()
    {
        final Random random = new Random(23);
        for (final int length : new int[] {0, 1, 7, 8, 9, 217, ResponseHandler.VIEWLESS_COPY_BYTES,
            ResponseHandler.VIEWLESS_COPY_BYTES + 1, 5_000})
        {
            final byte[] bytes = new byte[length + 3];
            random.nextBytes(bytes);
            final ByteBuf src = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
            src.readerIndex(3); // a read that does not start at the buffer's start
            final byte[] dst = new byte[length];
            ResponseHandler.copy(src, src.readerIndex(), dst, length);
            assertArrayEquals(Arrays.copyOfRange(bytes, 3, bytes.length), dst, "length " + length);
            src.release();
        }
    }
}
