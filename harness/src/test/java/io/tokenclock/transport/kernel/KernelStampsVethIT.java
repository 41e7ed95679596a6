package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.accuracy.TruthServer;

/**
 * {@link KernelStampsIT}'s assertions with the truth server in a network namespace reached over a veth pair, so that
 * the bytes cross a network device (veth's transmit, the peer's {@code netif_rx}, where the software receive stamp
 * is taken) and not loopback. Both ends are on one machine, so CLOCK_MONOTONIC is still one clock for the server's
 * send stamps and ours. Needs root and iproute2; skips in one line otherwise.
 */
@Timeout(120)
final class KernelStampsVethIT
{
    private static final long START_TIMEOUT_MS = 30_000;
    private static VethNamespace ns;

    @BeforeAll
    static void namespace() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "KernelStampsVethIT skipped: kernel " +
            "stamps: " + KernelStamps.unavailableReason());
        final String why = VethNamespace.unavailableReason();
        Assumptions.assumeTrue(why == null, "KernelStampsVethIT skipped: " + why);
        ns = VethNamespace.create();
    }

    @AfterAll
    static void removeNamespace()
    {
        if (ns != null)
        {
            ns.close();
        }
    }

    /** The server starts inside the namespace, bound to an address that exists only there. */
    private static final KernelStampsIT.Route VETH = new KernelStampsIT.Route()
    {
        @Override
        public TruthServer start(final TruthServer.Options options) throws Exception
        {
            final String address = ns.nsAddress().getHostAddress();
            return ns.inside(() -> TruthServer.start(options, address), START_TIMEOUT_MS);
        }

        @Override
        public InetAddress address()
        {
            try
            {
                return ns.nsAddress();
            }
            catch (final java.io.IOException e)
            {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String interfaceName()
        {
            return ns.hostSide();
        }
    };

    private static List<KernelStampsIT.Read> streamAcrossTheDevice(final int stallAfter, final long[] stallEndNs)
        throws Exception
    {
        return streamAcrossTheDevice(stallAfter, stallEndNs, false, null);
    }

    private static List<KernelStampsIT.Read> streamAcrossTheDevice(final int stallAfter, final long[] stallEndNs,
        final boolean tapped, final Path truthLog) throws Exception
    {
        final long rxBefore = ns.hostSideRxBytes();
        final List<KernelStampsIT.Read> reads = KernelStampsIT.stream(VETH, true, stallAfter, stallEndNs, tapped,
            truthLog);
        final long readBytes = reads.size(); // at least a byte per read; the stream is far more
        final long rx = ns.hostSideRxBytes() - rxBefore;
        assertTrue(rx > readBytes * 100, "the response crossed the veth pair (" + rx + " bytes received on its end " +
            "here, " + reads.size() + " reads), not loopback");
        return reads;
    }

    @Test
    void shouldStampEveryChunkAfterItsSendAndBeforeTheUserStampAcrossAVethPair() throws Exception
    {
        KernelStampsIT.assertStampedBetweenSendAndUser(streamAcrossTheDevice(-1, new long[1]));
    }

    @Test
    void shouldReadEachChunkQueuedByAStallOnItsOwnWithAStampBetweenItsSendAndItsReadAcrossAVethPair() throws Exception
    {
        final long[] stallEnd = new long[1];
        final List<KernelStampsIT.Read> reads = streamAcrossTheDevice(5, stallEnd);
        KernelStampsIT.assertQueuedChunksStampedBetweenSendAndRead(reads, stallEnd[0]);
    }

    @Test
    void shouldKeepEachChunksArrivalThroughAStallWithAPacketTapOnTheVethEnd() throws Exception
    {
        final String why = PacketTap.unavailableReason(ns.hostSide());
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        final long[] stallEnd = new long[1];
        final Path log = Files.createTempFile("tap-truth", ".jsonl");
        try
        {
            final List<KernelStampsIT.Read> reads = streamAcrossTheDevice(5, stallEnd, true, log);
            PacketTapIT.assertTapKeptTheTruth(reads, stallEnd[0], PacketTapIT.kernelSendStamps(log));
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }
}
