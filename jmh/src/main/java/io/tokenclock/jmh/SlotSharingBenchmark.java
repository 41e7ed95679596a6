package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.recording.Collector;
import io.tokenclock.recording.RequestSlot;

/**
 * Do the I/O thread and the collector pay for sharing cache lines? Issue 23 asked, because nothing in
 * {@link RequestSlot} or the collector's counter array was padded, and two threads write them. The slot's timeline is
 * padded now ({@code RequestSlotTimeline}); this benchmark is what shows that the paddings work.
 * <p>
 * <b>What each thread does per chunk, to one request's slot.</b> The I/O thread appends the chunk's text
 * ({@code slot.text}) and reads the cancellation rule and the output cap ({@code cancelAfterChunks},
 * {@code outputCapBytes}); the collector appends the chunk's stamp to the timeline ({@link RequestSlot#addChunk}:
 * {@code chunkNs}, {@code chunkTokens}, {@code chunkFlags}, {@code chunkCount}) and tests {@code firstTokenNs}. The
 * {@code slot*} groups run exactly that, one thread each, concurrently, as JMH {@code @Group}s:
 * <ul>
 * <li>{@link #slotSharedIo} and {@link #slotSharedCollector}: both threads on the same slot, as in a run.</li>
 * <li>{@link #slotApartIo} and {@link #slotApartCollector}: each on a slot of its own: the same work with nothing
 * shared, the floor that padding could at best reach.</li>
 * </ul>
 * <b>The counters.</b> The collector counts chunks ({@link Collector#CHUNKS}) and the stage counts ended requests
 * (here {@link Collector#MEASURED_OK}) in one {@code AtomicLongArray} of 16 longs: two cache lines. The
 * {@code counters*} groups have both threads count at full speed, in one array ({@link #countersSharedChunks},
 * {@link #countersSharedRequests}) or in two ({@code countersApart*}). That is an upper bound: in a run the stage
 * counts once per request, not once per chunk.
 * <p>
 * How to read it: the score of each thread of a group is ns per operation with the other thread running on another
 * core. Shared minus apart is what the sharing costs per chunk at this rate, which is far above any real stream's
 * (a chunk every few µs at the most, against tens of ns here), so it is an upper bound too. Needs two free cores to
 * mean anything: on a machine where the client is pinned to one core (scripts/accuracy), the threads share the core
 * and no line moves at all. Not in the allocation gate (nothing here allocates after the setup: the text and the
 * timeline are reset, not regrown).
 * <p>
 * Example: {@code java -jar jmh/target/benchmarks.jar SlotSharingBenchmark -prof gc}. The figures and the decision
 * are in docs/OVERHEAD.md, "Threads that share cache lines".
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SlotSharingBenchmark
{
    private static final byte[] TOKEN = " token".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Timeline length at which the collector starts over (reset, not regrown: no allocation in the loop). */
    private static final int CHUNKS_PER_REQUEST = 512;
    /** Text bytes at which the I/O thread starts over. */
    private static final int TEXT_BYTES = 512 * 6;

    /** One slot for both threads of a group. */
    @State(Scope.Group)
    public static class Shared
    {
        RequestSlot slot;
        AtomicLongArray counters;

        @Setup(Level.Trial)
        public void setUp()
        {
            slot = newSlot();
            counters = new AtomicLongArray(16);
        }
    }

    /** A slot of each thread's own. */
    @State(Scope.Thread)
    public static class Own
    {
        RequestSlot slot;
        AtomicLongArray counters;

        @Setup(Level.Trial)
        public void setUp()
        {
            slot = newSlot();
            counters = new AtomicLongArray(16);
        }
    }

    static RequestSlot newSlot()
    {
        final RequestSlot slot = new RequestSlot(0);
        slot.chunkNs = new long[CHUNKS_PER_REQUEST];
        slot.chunkTokens = new int[CHUNKS_PER_REQUEST];
        slot.chunkFlags = new byte[CHUNKS_PER_REQUEST];
        slot.text.append(new byte[TEXT_BYTES + TOKEN.length], 0, TEXT_BYTES + TOKEN.length, Integer.MAX_VALUE);
        slot.text.clear();
        return slot;
    }

    /** The I/O thread's per-chunk part: append the text, read the cancellation rule and the cap. */
    static int io(final RequestSlot slot)
    {
        if (slot.text.length() >= TEXT_BYTES)
        {
            slot.text.clear();
        }
        slot.text.append(TOKEN, 0, TOKEN.length, slot.outputCapBytes);
        return slot.cancelAfterChunks + slot.text.length();
    }

    /** The collector's per-chunk part: the timeline and the first-token test. */
    static long collect(final RequestSlot slot, final long nowNs)
    {
        if (slot.chunkCount == CHUNKS_PER_REQUEST)
        {
            slot.chunkCount = 0;
        }
        slot.addChunk(nowNs, 1, RequestSlot.CHUNK_OUTPUT);
        if (slot.firstTokenNs == 0)
        {
            slot.firstTokenNs = nowNs;
        }
        return slot.chunkCount;
    }

    private static long count(final AtomicLongArray counters, final int counter)
    {
        final long next = counters.get(counter) + 1;
        counters.lazySet(counter, next);
        return next;
    }

    @Benchmark
    @Group("slotShared")
    public int slotSharedIo(final Shared s)
    {
        return io(s.slot);
    }

    @Benchmark
    @Group("slotShared")
    public long slotSharedCollector(final Shared s)
    {
        return collect(s.slot, System.nanoTime());
    }

    @Benchmark
    @Group("slotApart")
    public int slotApartIo(final Own o)
    {
        return io(o.slot);
    }

    @Benchmark
    @Group("slotApart")
    public long slotApartCollector(final Own o)
    {
        return collect(o.slot, System.nanoTime());
    }

    @Benchmark
    @Group("countersShared")
    public long countersSharedChunks(final Shared s)
    {
        return count(s.counters, Collector.CHUNKS);
    }

    @Benchmark
    @Group("countersShared")
    public long countersSharedRequests(final Shared s)
    {
        return count(s.counters, Collector.MEASURED_OK);
    }

    @Benchmark
    @Group("countersApart")
    public long countersApartChunks(final Own o)
    {
        return count(o.counters, Collector.CHUNKS);
    }

    @Benchmark
    @Group("countersApart")
    public long countersApartRequests(final Own o)
    {
        return count(o.counters, Collector.MEASURED_OK);
    }
}
