package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.transport.PacketTapChoice;

/**
 * What does the packet tap add to a streamed chunk on the kernel-stamped client?
 * <p>
 * The same operation as {@link PerChunkKernelBenchmark} (its method, inherited), with {@code --packet-tap lo}: the
 * server's write of one chunk (one segment) and one turn of the client's loop that reads and records it, with every
 * read stamped by the tap. Subtract {@code PerChunkKernelBenchmark.perChunkFromSocket}, run beside it, for the tap's cost per chunk, which
 * is its cost per packet here (one data segment per chunk; the client's request and the server's ACKs are
 * outgoing or filtered out, and never reach the ring). What that difference holds: in the kernel, the filter's run on
 * the incoming copy of the segment on {@code lo} and the copy of its 128 header bytes into the ring's frame (the
 * sender's {@code write} runs the receive path, so this is in the score); on the loop's thread, the tap's lock, the
 * frame's read (its status word, stamp and TCP header, in place) and hand-back, and the lookup of the read's last byte;
 * without the peek the tap lets the read skip ({@code StampedSocket.readSplit}). What it does not hold: the tap's own
 * thread, which drains the ring every 1-10 ms from another core or between turns, and a real NIC.
 * <p>
 * Before the ring (2026-12-03's tap, a socket queue read with {@code recvmmsg}), the kernel cloned each packet onto
 * the tap's queue and a read that needed a stamp not yet drained made a {@code recvmmsg}: that is the "before" this
 * benchmark was written to compare (docs/OVERHEAD.md, "What the packet tap costs").
 * <p>
 * Needs {@code CAP_NET_RAW} (the setup fails in one line without it: a run without the tap would measure the other
 * benchmark). Allocation: none per chunk, held to the same bound as {@link PerChunkKernelBenchmark}'s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerChunkTapBenchmark extends PerChunkKernelBenchmark
{
    @Override
    protected PacketTapChoice packetTap()
    {
        return PacketTapChoice.parse("lo");
    }

    @Override
    protected void check(final long[] reads)
    {
        super.check(reads);
        if (reads[3] == 0)
        {
            throw new IllegalStateException("no read took the tap's stamp (" + reads[4] + " missed it)");
        }
    }
}
