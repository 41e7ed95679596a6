package io.tokenclock.transport;

import io.tokenclock.transport.kernel.ClockBridge;

/**
 * How a run's reads were stamped: {@code measurement.stamping} in record.json.
 *
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
public record StampingReport(String mode, String requested, long reads, long fallbackReads, String fallbackReason,
    long offsetMinNs, long offsetMaxNs, long realtimeSteps, long backlogReads, long sharedStamps,
    ReceiveDelay receiveDelay, SendDelay sendDelay, PacketTap packetTap)
{
    /** An offset move larger than this between two samples is a step of the realtime clock ({@link ClockBridge}). */
    public static final long STEP_NS = ClockBridge.STEP_NS;

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
     * @param interfaceName the interface tapped.
     * @param error         why the tap could not be opened (no CAP_NET_RAW, no such interface, user stamping), or null.
     * @param reads         reads stamped by the tap.
     * @param missed        reads that kept the socket's stamp (the tap had none for the byte).
     * @param packets       packets the tap read; {@code segments} of them carried new bytes of a followed connection.
     * @param segments      data segments stamped.
     * @param drops         packets the kernel dropped because the tap's queue was full.
     */
    public record PacketTap(String interfaceName, String error, long reads, long missed, long packets, long segments,
        long drops)
    {
    }

    /** @return this report with {@code tap} as its packet tap's part. */
    public StampingReport withPacketTap(final PacketTap tap)
    {
        return new StampingReport(mode, requested, reads, fallbackReads, fallbackReason, offsetMinNs, offsetMaxNs,
            realtimeSteps, backlogReads, sharedStamps, receiveDelay, sendDelay, tap);
    }

    /** @return whether the kernel stamps this client's reads (some may still fall back, one by one). */
    public boolean kernel()
    {
        return "kernel".equals(mode);
    }

    /** @return a report of user stamps; {@code fallbackReason} non-null when kernel stamps were asked. */
    public static StampingReport user(final String fallbackReason)
    {
        return new StampingReport("user", fallbackReason == null ? "user" : "kernel", 0, 0, fallbackReason, 0, 0, 0,
            0, 0, null, null, null);
    }
}
