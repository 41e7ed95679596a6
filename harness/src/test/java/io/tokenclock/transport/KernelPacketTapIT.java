package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
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
 * The kernel client with {@code --packet-tap} through a deliberate 50 ms stall of its stamping thread (a task run
 * on its loop, {@link KernelLoop#execute}): the chunks that arrive during the stall are read after it, from a receive
 * queue that merged them; with the tap each keeps the arrival of its own segment, which the truth server's kernel
 * send stamp ({@code kernel_sent_ns}) bounds from below. Asserts order only, never speed. Needs CAP_NET_RAW; skips
 * in one line otherwise.
 */
@Timeout(60)
final class KernelPacketTapIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TOKENS = 40;
    private static final double ITL_MS = 4;
    private static final long STALL_MS = 50;
    private static final long CONVERSION_SLACK_NS = 2_000;

    @BeforeAll
    static void tapAllowed()
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "KernelPacketTapIT skipped: kernel " +
            "stamps: " + KernelStamps.unavailableReason());
        final String why = PacketTap.unavailableReason("lo");
        Assumptions.assumeTrue(why == null, "KernelPacketTapIT skipped: " + why);
    }

    /** One streamed response: its chunks' stamps, the server's kernel send stamps, the stall and the stamping. */
    record Run(List<Long> stampsNs, List<Long> kernelSentNs, long stallStartNs, long stallEndNs,
        StampingReport stamping)
    {
    }

    private static Run stream(final String tap) throws Exception
    {
        final Path log = Files.createTempFile("tap-client-truth", ".jsonl");
        final long[] stall = new long[2];
        final List<Long> stamps = new ArrayList<>();
        StampingReport stamping = null;
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, ITL_MS, TOKENS))
            .withIoThreads(1).withTruthLog(log).withKernelSendStamps(true)))
        {
            final ClientSettings s = new ClientSettings(Endpoint.parse(server.baseUrl(), Api.CHAT),
                SystemNanoClock.INSTANCE, new ChunkRecords(1 << 20), Map.of(), 2, 1, RequestLimits.DEFAULT, false,
                TlsTrust.DEFAULT, Stamping.KERNEL,
                tap == null ? PacketTapChoice.OFF_CHOICE : PacketTapChoice.parse(tap));
            try (KernelStreamClient client = (KernelStreamClient)StreamClients.open(s, line -> {}))
            {
                final RequestSlot slot = submit(client, TOKENS);
                final boolean ended = collect(s.records(), stamps, 4_000,
                    () -> client.loop(0).execute(() -> stall(stall)));
                assertTrue(ended, "the request ended");
                assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
                stamping = client.stamping();
            }
        }
        try
        {
            final JsonNode truth = JSON.readTree(Files.readAllLines(log).get(0));
            final List<Long> kernelSent = new ArrayList<>();
            truth.path("kernel_sent_ns").forEach(n -> kernelSent.add(n.asLong()));
            return new Run(stamps, kernelSent, stall[0], stall[1], stamping);
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }

    /** Sends one streamed request of {@code tokens} tokens. */
    private static RequestSlot submit(final KernelStreamClient client, final int tokens)
    {
        final RequestSlot slot = new RequestSlot(0);
        slot.body = ("{\"model\":\"m\",\"stream\":true,\"max_tokens\":" + tokens + ",\"messages\":[{\"role\":" +
            "\"user\",\"content\":\"hi\"}]}").getBytes(StandardCharsets.UTF_8);
        slot.bodyLength = slot.body.length;
        client.submit(slot);
        return slot;
    }

    /**
     * Reads the chunk records' stamps into {@code stamps} until the request's end record, at most {@code polls} times
     * 2 ms apart, and runs {@code atFifth} once, when the fifth chunk has come.
     *
     * @return whether the request ended.
     */
    private static boolean collect(final ChunkRecords records, final List<Long> stamps, final int polls,
        final Runnable atFifth) throws InterruptedException
    {
        boolean started = false;
        final boolean[] end = new boolean[1];
        for (int i = 0; i < polls && !end[0]; i++)
        {
            records.ring().read((type, buffer, index, length) ->
            {
                if (type == ChunkRecords.MSG_END)
                {
                    end[0] = true;
                }
                else
                {
                    stamps.add(buffer.getLong(index + ChunkRecords.NS_OFFSET));
                }
            });
            if (!started && stamps.size() >= 5)
            {
                started = true;
                atFifth.run();
            }
            Thread.sleep(2);
        }
        return end[0];
    }

    private static void stall(final long[] startEnd)
    {
        startEnd[0] = System.nanoTime();
        try
        {
            Thread.sleep(STALL_MS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        startEnd[1] = System.nanoTime();
    }

    @Test
    void shouldGiveEachChunkQueuedDuringAStallTheArrivalOfItsOwnSegment() throws Exception
    {
        final Run run = stream("lo");
        final StampingReport.PacketTap tap = run.stamping().packetTap();
        assertNotNull(tap, "the record says what the tap did");
        assertNull(tap.error(), tap.toString());
        final List<long[]> during = during(run);
        assertTrue(during.size() >= 2, "chunks sent during the stall: " + during.size() + " " + run);
        assertTrue(tap.reads() + 1 >= during.size() && tap.segments() >= during.size() && tap.drops() == 0,
            "each chunk of the stall its own segment, stamped by the tap: " + tap);
        long previous = Long.MIN_VALUE;
        long worstNs = 0;
        int distinct = 0;
        for (final long[] chunk : during)
        {
            assertTrue(chunk[0] >= chunk[1] - CONVERSION_SLACK_NS, "not before the kernel sent it: " + run);
            assertTrue(chunk[0] < run.stallEndNs(), "stamped with its arrival, not the read after the stall");
            // Not strictly increasing: a truth server catching up writes chunks back to back, and TCP's autocorking
            // may send them as one segment, which then did arrive once.
            assertTrue(chunk[0] >= previous, () -> "arrivals in order: " + describe(during, run.stallStartNs()));
            distinct += chunk[0] != previous ? 1 : 0;
            previous = chunk[0];
            worstNs = Math.max(worstNs, chunk[0] - chunk[1]);
        }
        final int arrivals = distinct;
        assertTrue(arrivals * 2 > during.size(), () -> "most chunks of the stall their own arrival: " + arrivals +
            " of " + during.size() + describe(during, run.stallStartNs()));
        final Run without = stream(null);
        long worstWithoutNs = 0;
        for (final long[] chunk : during(without))
        {
            worstWithoutNs = Math.max(worstWithoutNs, chunk[0] - chunk[1]);
        }
        System.out.printf("client through a stall: %d chunks sent during it, %d distinct arrivals; stamp - kernel " +
            "send max: with the tap %.1f us (%d tap reads, %d missed), without %.1f us%n", during.size(), arrivals,
            worstNs / 1e3, tap.reads(), tap.missed(), worstWithoutNs / 1e3);
    }

    /** @return each chunk's stamp and kernel send stamp, µs after {@code originNs}, one line each. */
    private static String describe(final List<long[]> chunks, final long originNs)
    {
        final StringBuilder out = new StringBuilder();
        for (final long[] c : chunks)
        {
            out.append(String.format("%n  stamp %.1f kernel sent %.1f", (c[0] - originNs) / 1e3,
                (c[1] - originNs) / 1e3));
        }
        return out.toString();
    }

    /** @return {stamp, kernel send stamp} of each chunk the server sent during the stall, paired from the end. */
    private static List<long[]> during(final Run run)
    {
        final List<long[]> out = new ArrayList<>();
        final int skip = run.stampsNs().size() - run.kernelSentNs().size();
        for (int i = 0; i < run.kernelSentNs().size(); i++)
        {
            final long sent = run.kernelSentNs().get(i);
            if (sent > run.stallStartNs() && sent < run.stallEndNs() && i + skip >= 0)
            {
                out.add(new long[] {run.stampsNs().get(i + skip), sent});
            }
        }
        return out;
    }

    @Test
    void shouldKeepEveryChunkWhenTheTapsRingIsFullAndCountTheReadsThatKeptTheSocketsStamp() throws Exception
    {
        final int tokens = 1_500;
        final List<Long> stamps = new ArrayList<>();
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 1, tokens))
            .withIoThreads(1)))
        {
            final ClientSettings s = new ClientSettings(Endpoint.parse(server.baseUrl(), Api.CHAT),
                SystemNanoClock.INSTANCE, new ChunkRecords(1 << 22), Map.of(), 2, 1, RequestLimits.DEFAULT, false,
                TlsTrust.DEFAULT, Stamping.KERNEL, PacketTapChoice.parse("lo"));
            // a ring of 16 frames, which the chunks overflow while the test holds the tap (and so its reads)
            final TapSelection.Probe smallRing = new TapSelection.Probe()
            {
                @Override
                public String privilegeReason()
                {
                    return TapSelection.SYSTEM.privilegeReason();
                }

                @Override
                public String interfaceOf(final java.net.InetAddress target) throws java.io.IOException
                {
                    return TapSelection.SYSTEM.interfaceOf(target);
                }

                @Override
                public PacketTap open(final String iface, final java.net.InetAddress address, final int port,
                    final int threads) throws java.io.IOException
                {
                    return PacketTap.open(iface, address, port, threads, 16);
                }
            };
            final StampingReport stamping;
            try (KernelStreamClient client = new KernelStreamClient(s, line -> {}, true, true,
                io.tokenclock.transport.kernel.LinuxNet.TX_STAMP_FLAGS, smallRing))
            {
                final RequestSlot slot = submit(client, tokens);
                final Thread holder = new Thread(() ->
                {
                    final PacketTap tap = client.tap();
                    synchronized (tap)
                    {
                        // the loop waits on the tap's lock at its next read, and nothing reads the ring, until the
                        // kernel has dropped some packets (its count is read under this lock; at most 10 s)
                        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
                        while (tap.drops() < 20 && System.nanoTime() < deadlineNs)
                        {
                            sleep(20);
                        }
                    }
                });
                final boolean ended = collect(s.records(), stamps, 10_000, holder::start);
                holder.join();
                assertTrue(ended, "the request ended");
                assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
                stamping = client.stamping();
            }
            final StampingReport.PacketTap tap = stamping.packetTap();
            assertEquals(tokens, stamps.size(), "no chunk lost: " + tap);
            for (int i = 1; i < stamps.size(); i++)
            {
                assertTrue(stamps.get(i) >= stamps.get(i - 1), "stamps never go back: chunk " + i);
            }
            assertTrue(tap.drops() > 0, "the full ring dropped, and said so: " + tap);
            assertTrue(tap.missed() > 0, "the reads of what it dropped kept the socket's stamp, counted: " + tap);
            assertEquals(16, tap.ringFrames());
            System.out.printf("a full ring: %d packets dropped, %d reads kept the socket's stamp, %d took the tap's%n",
                tap.drops(), tap.missed(), tap.reads());
        }
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
