package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.accuracy.TruthScript;
import io.tokenclock.accuracy.TruthServer;
import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.PacketTap;

/**
 * The kernel client's pauses between busy turns ({@code KernelLoop.pauseIfBusy}): one loop reads many streams from
 * the truth server, and a deliberate stall of its thread (a task on its loop, {@link KernelLoop#execute}) leaves
 * every stream ready at once, so that the next turn is busy whatever the machine's speed. With the packet tap the
 * loop then pauses, and every chunk still arrives once, in order, stamped by the tap; without the tap, or with fewer
 * streams than the busy threshold, it never pauses; a submit during a pause ends it. Asserts behaviour only, never
 * speed. The tap's cases need CAP_NET_RAW and skip in one line otherwise.
 */
@Timeout(120)
final class KernelReaderPauseIT
{
    private static final int STREAMS = 2 * KernelLoop.BUSY_EVENTS;
    private static final int TOKENS = 100;
    private static final double ITL_MS = 2;
    private static final long STALL_MS = 50;

    /** What one run read: each request's chunk stamps (by slot), its slots and how the reads were stamped. */
    record Outcome(List<List<Long>> stampsBySlot, RequestSlot[] slots, StampingReport stamping)
    {
        StampingReport.Reader reader()
        {
            return stamping.reader();
        }
    }

    private static void assumeTap()
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "KernelReaderPauseIT skipped: kernel " +
            "stamps: " + KernelStamps.unavailableReason());
        final String why = PacketTap.unavailableReason("lo");
        Assumptions.assumeTrue(why == null, "KernelReaderPauseIT skipped (run as root or with CAP_NET_RAW to " +
            "enable it): " + why);
    }

    /**
     * Streams {@code streams} requests of {@link #TOKENS} tokens on one loop, stalls it once every stream has sent a
     * chunk, and reads until every request has ended.
     *
     * @param tap       {@code --packet-tap}'s value, or null for off.
     * @param duringPause whether a further request (the last slot) is submitted as the loop's first pause begins.
     */
    private static Outcome run(final String tap, final int streams, final boolean duringPause) throws Exception
    {
        final int requests = streams + (duringPause ? 1 : 0);
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, ITL_MS, TOKENS))
            .withIoThreads(1)))
        {
            final ClientSettings s = new ClientSettings(Endpoint.parse(server.baseUrl(), Api.CHAT),
                SystemNanoClock.INSTANCE, new ChunkRecords(1 << 22), Map.of(), requests, 1, RequestLimits.DEFAULT,
                false, TlsTrust.DEFAULT, Stamping.KERNEL,
                tap == null ? PacketTapChoice.OFF_CHOICE : PacketTapChoice.parse(tap));
            try (KernelStreamClient client = (KernelStreamClient)StreamClients.open(s, line -> {}))
            {
                final RequestSlot[] slots = new RequestSlot[requests];
                for (int i = 0; i < requests; i++)
                {
                    slots[i] = request(i);
                }
                if (duringPause)
                {
                    client.loop(0).beforeNextPause(() -> client.submit(slots[streams]));
                }
                for (int i = 0; i < streams; i++)
                {
                    client.submit(slots[i]);
                }
                final List<List<Long>> stamps = collect(s.records(), requests, streams,
                    () -> client.loop(0).execute(KernelReaderPauseIT::stall));
                return new Outcome(stamps, slots, client.stamping());
            }
        }
    }

    private static RequestSlot request(final int index)
    {
        final RequestSlot slot = new RequestSlot(index);
        slot.body = ("{\"model\":\"m\",\"stream\":true,\"max_tokens\":" + TOKENS + ",\"messages\":[{\"role\":" +
            "\"user\",\"content\":\"hi\"}]}").getBytes(StandardCharsets.UTF_8);
        slot.bodyLength = slot.body.length;
        return slot;
    }

    /**
     * Reads the chunk records' stamps by slot until {@code requests} end records came (at most 20 s), and runs
     * {@code stall} once, when each of the first {@code streams} slots has had a chunk.
     */
    private static List<List<Long>> collect(final ChunkRecords records, final int requests, final int streams,
        final Runnable stall) throws InterruptedException
    {
        final List<List<Long>> stamps = new ArrayList<>();
        for (int i = 0; i < requests; i++)
        {
            stamps.add(new ArrayList<>());
        }
        final Set<Integer> started = new HashSet<>();
        final int[] ends = new int[1];
        boolean stalled = false;
        final long deadlineNs = System.nanoTime() + 20_000_000_000L;
        while (ends[0] < requests && System.nanoTime() < deadlineNs)
        {
            records.ring().read((type, buffer, index, length) ->
            {
                final int slot = buffer.getInt(index + ChunkRecords.SLOT_OFFSET);
                if (type == ChunkRecords.MSG_END)
                {
                    ends[0]++;
                }
                else
                {
                    stamps.get(slot).add(buffer.getLong(index + ChunkRecords.NS_OFFSET));
                    started.add(slot);
                }
            });
            if (!stalled && started.size() >= streams)
            {
                stalled = true;
                stall.run();
            }
            Thread.sleep(2);
        }
        assertEquals(requests, ends[0], "every request ended");
        return stamps;
    }

    private static void stall()
    {
        try
        {
            Thread.sleep(STALL_MS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Every request complete with all its tokens, each chunk stamped once, its stamps in order. */
    private static void assertEveryChunkOnceInOrder(final Outcome o)
    {
        for (int i = 0; i < o.slots().length; i++)
        {
            final RequestSlot slot = o.slots()[i];
            assertEquals(ErrorClass.NONE, slot.errorClass, "request " + i + ": " + slot.errorDetail);
            final List<Long> stamps = o.stampsBySlot().get(i);
            assertEquals(TOKENS, stamps.size(), "request " + i + ": every token, each chunk once");
            assertTrue(stamps.get(0) >= slot.sentNs, "request " + i + ": its first chunk after its send");
            for (int c = 1; c < stamps.size(); c++)
            {
                assertTrue(stamps.get(c) >= stamps.get(c - 1), "request " + i + ", chunk " + c + ": stamps in order");
            }
        }
        assertEquals((long)TOKENS * o.slots().length, o.stamping().chunks().stamped(), "chunks stamped, once each");
    }

    @Test
    void shouldPauseABusyLoopWhileTheTapStampsAndKeepEveryChunksOwnStamp() throws Exception
    {
        assumeTap();
        final Outcome o = run("lo", STREAMS, false);
        final StampingReport.PacketTap tap = o.stamping().packetTap();
        assertNotNull(tap, "the record says what the tap did");
        assertTrue(tap.open(), tap.toString());
        assertTrue(o.reader().pauses() > 0, "a busy loop paused: " + o.reader());
        assertTrue(o.reader().pausedNs() > 0, "and for some time: " + o.reader());
        assertEveryChunkOnceInOrder(o);
        assertEquals(0, tap.missed(), "every read stamped by the tap, however late: " + tap);
        assertEquals(0, tap.drops(), tap.toString());
        assertTrue(tap.reads() >= (long)TOKENS * STREAMS / 2, "the tap stamped the reads: " + tap);
        System.out.printf("%d streams through a stall, the tap on: %d pauses, %.1f ms paused, %d cut short; %d tap " +
            "reads, %d missed%n", STREAMS, o.reader().pauses(), o.reader().pausedNs() / 1e6,
            o.reader().pausesCutShort(), tap.reads(), tap.missed());
    }

    @Test
    void shouldNeverPauseWithoutThePacketTap() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "KernelReaderPauseIT skipped: kernel " +
            "stamps: " + KernelStamps.unavailableReason());
        final Outcome o = run(null, STREAMS, false);
        assertEquals(0, o.reader().pauses(), "without the tap a late read loses stamps: no pause, " + o.reader());
        assertEquals(0, o.reader().pausedNs());
        assertEquals(TOKENS * STREAMS, o.stampsBySlot().stream().mapToInt(List::size).sum(), "every chunk read");
    }

    @Test
    void shouldNeverPauseWhenFewerConnectionsThanTheBusyThresholdWereReady() throws Exception
    {
        assumeTap();
        final int streams = KernelLoop.BUSY_EVENTS / 4;
        final Outcome o = run("lo", streams, false);
        assertEquals(0, o.reader().pauses(), "at most " + streams + " ready at once: low load, no pause, " +
            o.reader());
        assertEveryChunkOnceInOrder(o);
    }

    @Test
    void shouldEndAPauseAtOnceWhenARequestIsSubmittedDuringIt() throws Exception
    {
        assumeTap();
        final Outcome o = run("lo", STREAMS, true);
        assertTrue(o.reader().pauses() > 0, o.reader().toString());
        assertTrue(o.reader().pausesCutShort() > 0, "the submit woke the paused loop: " + o.reader());
        assertEveryChunkOnceInOrder(o);
    }
}
