package io.tokenclock.transport;

import io.tokenclock.transport.kernel.ClockBridge;

/**
 * How a run's reads were stamped: {@code measurement.stamping} in record.json.
 *
 * @param transport      the {@link Transport} that read ({@code kernel} or {@code netty}): its {@link Transport#name}.
 * @param mode           {@code kernel} or {@code user}: what stamped the reads.
 * @param requested      what the run asked for ({@code --stamping}).
 * @param reads          network reads stamped (kernel client only; 0 for the Netty client, which does not count).
 * @param fallbackReads  reads that carried no kernel stamp and took the user stamp instead.
 * @param fallbackReason why the run stamps in user space although kernel stamps were asked, or null.
 * @param offsetMinNs    the smallest realtime-to-monotonic offset sampled beside a read (kernel only).
 * @param offsetMaxNs    the largest one; {@code max - min} well above a few µs means the realtime clock moved.
 * @param realtimeSteps  samples where the offset jumped by more than {@link #STEP_NS} (a step of the realtime clock).
 * @param backlogReads   reads cut to one event's boundary because more was queued behind it.
 * @param sharedStamps   reads whose kernel stamp equals the previous read's on the same connection: their bytes came
 *                       in one segment with the previous read's, or in a segment TCP merged with it while both
 *                       waited to be read (the merged segment keeps the newest stamp). Where a server writes one
 *                       event per segment, as the truth server does, each is an event stamped with a later
 *                       arrival than its own, because the client read it more than an ITL late.
 * @param receiveDelay   kernel stamp to user stamp, per read: the client's own receive delay; null for user stamps.
 * @param sendDelay      user send stamp to kernel send stamp, per request: the client's own send delay; null for user
 *                       stamps.
 * @param packetTap      what the packet tap did ({@code --packet-tap}), or null when the run asked for none.
 */
public record StampingReport(String transport, String mode, String requested, long reads, long fallbackReads,
    String fallbackReason, long offsetMinNs, long offsetMaxNs, long realtimeSteps, long backlogReads, long sharedStamps,
    Chunks chunks, ReceiveDelay receiveDelay, SendDelay sendDelay, PacketTap packetTap)
{
    /** An offset move larger than this between two samples is a step of the realtime clock ({@link ClockBridge}). */
    public static final long STEP_NS = ClockBridge.STEP_NS;

    /**
     * The bound on chunks that shared a stamp, as a fraction: above one content chunk in 1,000 (or one first chunk in
     * 1,000 requests), the run's figures were compromised by the client's reading ({@link Chunks#compromised}).
     * <p>
     * Why there. A chunk that took the next one's stamp makes two gaps wrong: its own shrinks to nothing and the one
     * before it grows by as much. So a fraction f of such chunks moves every percentile above 1 - 2f: 1 in 1,000 moves
     * the p99.9 the summary prints, and is a fifth of the 1 in 200 that moves the p99. A first chunk that took the
     * second's makes its request's TTFT late by one gap, so the same bound holds for requests. Why not zero: a server
     * may write two events in one segment, and their one stamp is then the truth; such runs stay below it unless the
     * server does so often, and then the line says what the record counts.
     */
    public static final double SHARED_CHUNKS_BOUND = 0.001;

    /**
     * Content chunks as the kernel client stamped them (warm-up included).
     *
     * @param stamped      content chunks stamped.
     * @param shared       of them, those whose read had the socket's kernel stamp of the previous content chunk's read
     *                     in the same request: one stamp for both, a gap of zero where the server may have left one,
     *                     because the reader came late and TCP had merged them (or the server sent them together).
     * @param together     those the packet tap saw arrive in one segment with the chunk before them: they did arrive
     *                     together, and their stamps are the truth, so they are not in {@code shared}.
     * @param firsts       requests whose first content chunk was stamped.
     * @param firstsShared of them, those whose second content chunk had the first's stamp from the socket: the first
     *                     was stamped at the second's arrival, and the request's TTFT is late by that gap.
     */
    public record Chunks(long stamped, long shared, long together, long firsts, long firstsShared)
    {
        /** @return whether more chunks, or more first chunks, shared a stamp than {@link #SHARED_CHUNKS_BOUND} lets. */
        public boolean compromised()
        {
            return shared > SHARED_CHUNKS_BOUND * stamped || firstsShared > SHARED_CHUNKS_BOUND * firsts;
        }
    }

    /**
     * The distribution of kernel stamp to user stamp over the reads that had both, ns.
     *
     * @param count reads.
     * @param p50Ns median.
     * @param p99Ns 99th percentile.
     * @param p999Ns 99.9th percentile.
     * @param maxNs largest.
     */
    public record ReceiveDelay(long count, long p50Ns, long p99Ns, long p999Ns, long maxNs)
    {
    }

    /**
     * The distribution of the kernel's send stamp of a request's last byte minus its user send stamp (taken before
     * the write), ns, over the requests that had both: how much later than {@code sent_ns} the request really left,
     * and so how much earlier TTFT would end if it started at the kernel's stamp.
     *
     * @param requests       requests with a send stamp.
     * @param unstamped      requests sent with send stamps on whose stamp had not come when they ended.
     * @param beforeUserSend stamps earlier than their user send stamp (recorded in the distribution as 0).
     * @param socketsRefused sockets on which the kernel refused send stamps.
     * @param p50Ns          median.
     * @param p99Ns          99th percentile.
     * @param p999Ns         99.9th percentile.
     * @param maxNs          largest.
     */
    public record SendDelay(long requests, long unstamped, long beforeUserSend, long socketsRefused, long p50Ns,
        long p99Ns, long p999Ns, long maxNs)
    {
    }

    /**
     * The packet tap's part ({@code transport.kernel.PacketTap}): each read's stamp is the tap's stamp of the segment
     * that carried the read's last byte, so that the reads a stall merged keep their own arrivals.
     *
     * @param selection        what the run asked: {@code auto}, {@code off} or {@code interface} (one named).
     * @param interfaceName    the interface tapped, named, or found for {@code auto}; null when none was.
     * @param reason           why the reads are stamped as they are: the tap and why it could be had, or why not.
     * @param error            why a tap to be opened could not be (no such interface, a refused option), or null.
     * @param reads            reads stamped by the tap.
     * @param missed           reads that kept the socket's stamp (the tap had none for the byte).
     * @param packets          packets the tap read; {@code segments} of them carried new bytes of a followed connection.
     * @param segments         data segments stamped.
     * @param drops            packets the kernel dropped because the tap's ring was full.
     * @param stampedAtCapture packets whose stamp the kernel read as it captured them: those that carried a departure
     *                         time rather than a receive stamp (TCP over loopback).
     * @param ringFrames       the ring's frames (packets it holds while nothing reads); 0 without a tap.
     * @param threadCpu        the CPU the tap's thread had to itself, or -1: it shared the stamping threads'.
     */
    public record PacketTap(String selection, String interfaceName, String reason, String error, long reads,
        long missed, long packets, long segments, long drops, long stampedAtCapture, int ringFrames, int threadCpu)
    {
        /** @return the part of a run without a tap: what was asked and why there is none. */
        public static PacketTap none(final String selection, final String interfaceName, final String reason,
            final String error)
        {
            return new PacketTap(selection, interfaceName, reason, error, 0, 0, 0, 0, 0, 0, 0, -1);
        }

        /** @return whether a tap was open. */
        public boolean open()
        {
            return ringFrames > 0;
        }
    }

    /** @return this report with {@code tap} as its packet tap's part. */
    public StampingReport withPacketTap(final PacketTap tap)
    {
        return new StampingReport(transport, mode, requested, reads, fallbackReads, fallbackReason, offsetMinNs,
            offsetMaxNs, realtimeSteps, backlogReads, sharedStamps, chunks, receiveDelay, sendDelay, tap);
    }

    /** @return whether the kernel stamps this client's reads (some may still fall back, one by one). */
    public boolean kernel()
    {
        return "kernel".equals(mode);
    }

    /** @return a report of Netty's user stamps; {@code fallbackReason} non-null when kernel stamps were asked. */
    public static StampingReport user(final String fallbackReason)
    {
        return new StampingReport(NettyTransport.NAME, "user", fallbackReason == null ? "user" : "kernel", 0, 0,
            fallbackReason, 0, 0, 0, 0, 0, null, null, null, null);
    }
}
