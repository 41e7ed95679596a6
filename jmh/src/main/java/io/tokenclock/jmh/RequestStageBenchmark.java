package io.tokenclock.jmh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.RequestStage;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;
import io.tokenclock.report.RequestsJsonlWriter;

/**
 * What the harness pays once per request off the stamping thread: the hand-off from the ring's consumer to the
 * request stage, and the {@code requests.jsonl} line.
 * <p>
 * {@link #requestThroughStage} is {@link RequestLifecycleBenchmark#request} with the work split as a run splits it:
 * the collector frees the permit and queues the ended request ({@code Collector.stageOnOwnThread}), and the stage
 * ({@link RequestStage#drain}) derives the metrics, records them and returns the slot. Both halves run on this thread,
 * so the score is work, not a cross-thread latency. Its difference from {@code RequestLifecycleBenchmark.request} is
 * the price of the hand-off (a queue offer and poll); it must be 0 B/op like the rest of the measurement core.
 * <p>
 * {@link #logLine} (0 B/op) writes one {@code requests.jsonl} line for a finished 200-chunk request (200 arrival
 * stamps, a response id, every metric), into a buffer that goes to {@code /dev/null} in 64 KiB writes, as a run writes
 * it to a file. {@link #logLineWithText} adds the answer's text ({@code --save-text}): 200 tokens with escaped
 * newlines, so the text is decoded and re-encoded. Why it matters: this is the largest per-request cost the harness
 * has, and its allocation becomes GC work that shares the machine with the stamping thread. It runs on the request
 * stage's thread, at idle priority, never on the I/O thread.
 * <p>
 * How to read the numbers: per request, so divide by the answer's chunks to compare with {@code PerChunkBenchmark}
 * (at 200 chunks, 2 µs per request is 10 ns per chunk). With {@code -prof gc}, {@code gc.alloc.rate.norm} is the
 * bytes per request; the gate ({@code tools.AllocationCheck}, in {@code ./tokenclock test}) holds each method to
 * its {@link AllocationBound}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestStageBenchmark
{
    private static final int LOGGED_CHUNKS = 200;

    private SlotPool pool;
    private Collector collector;
    private RequestStage stage;
    private StreamRecorder recorder;
    private long now;

    private RequestsJsonlWriter writer;
    private RequestsJsonlWriter textWriter;
    private RequestSlot logged;
    private RequestMetrics loggedMetrics;

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final ChunkRecords records = new ChunkRecords(1 << 22);
        pool = new SlotPool(2);
        collector = new Collector(records, pool, new MetricRecorders(), null);
        stage = collector.stageOnOwnThread();
        recorder = new StreamRecorder(records);
        now = 1_000_000_000L;

        writer = new RequestsJsonlWriter(nullDevice(), false, Api.CHAT);
        textWriter = new RequestsJsonlWriter(nullDevice(), true, Api.CHAT);
        logged = finishedRequest();
        loggedMetrics = new RequestMetrics().compute(logged);
    }

    /**
     * {@code /dev/null}, opened as it is (written, never created): not by path through the writer, which opens a run's
     * file by removing what the name held, and so as root replaced the machine's null device with a regular file
     * (WholeFile's javadoc tells what followed). A missing device is an error here, never a file growing on disk.
     */
    private static OutputStream nullDevice() throws IOException
    {
        return Files.newOutputStream(Path.of("/dev/null"), StandardOpenOption.WRITE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        writer.close();
        textWriter.close();
    }

    @Benchmark
    public long requestThroughStage() throws InterruptedException
    {
        now = RequestLifecycleBenchmark.minimalRequest(pool, recorder, now);
        collector.poll();
        stage.drain();
        return collector.counters().get(Collector.MEASURED_OK);
    }

    @Benchmark
    public void logLine()
    {
        writer.onRequestComplete(logged, loggedMetrics);
    }

    @Benchmark
    @AllocationBound(bytesPerOp = 4096, why = "text with escapes is decoded to a String and re-encoded so the line " +
        "is valid whatever the server sent: for this 1.2 KB answer, the quoted copy, the parser and the String, " +
        "3,000 B/op measured (Temurin 25, jackson-core 2.x); logLine, without text, allocates nothing")
    public void logLineWithText()
    {
        textWriter.onRequestComplete(logged, loggedMetrics);
    }

    private static RequestSlot finishedRequest()
    {
        final RequestSlot s = new RequestSlot(0);
        s.reset();
        s.requestId = 42;
        s.phase = RequestSlot.PHASE_MEASURE;
        s.status = RequestSlot.STATUS_OK;
        s.connectionId = 3;
        s.httpStatus = 200;
        s.scheduledNs = 1_000_000_000L;
        s.submitNs = s.scheduledNs + 2_000;
        s.sentNs = s.scheduledNs + 40_000;
        long t = s.sentNs + 30_000_000L;
        for (int i = 0; i < LOGGED_CHUNKS; i++)
        {
            s.addChunk(t, -1, RequestSlot.CHUNK_OUTPUT);
            t += 8_000_000L + (i * 7919L) % 300_000L;
        }
        s.firstTokenNs = s.chunkNs[0];
        s.firstOutputNs = s.chunkNs[0];
        s.endNs = t;
        s.doneSeen = true;
        s.finishReason = 2;
        s.usagePromptTokens = 512;
        s.usageCompletionTokens = LOGGED_CHUNKS;
        final byte[] id = "chatcmpl-8f14e45fceea167a5a36dedd4bea2543".getBytes(StandardCharsets.UTF_8);
        s.setResponseId(id, 0, id.length);
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < LOGGED_CHUNKS; i++)
        {
            text.append(i % 20 == 19 ? "\\n" : " token");
        }
        final byte[] raw = text.toString().getBytes(StandardCharsets.UTF_8);
        s.appendText(raw, 0, raw.length);
        return s;
    }
}
