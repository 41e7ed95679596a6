package io.tokenclock.runner;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * One finished request as a JDK Flight Recorder event ({@code --jfr-events}), so that a run reads in JDK Mission
 * Control beside the JVM's GC, safepoint and thread events. Committed by the request stage when it has derived the
 * request's metrics (within milliseconds of the request's end, on its own idle-priority thread, never on an I/O
 * thread), so the event's own time is that moment; the request's latencies are its fields. Durations are
 * nanoseconds (JMC shows them as time spans); an undefined one is -1.
 */
@Name("tokenclock.Request")
@Label("LLM Request")
@Category({"tokenclock"})
@Description("A request finished: its status, latencies and token counts, from the run's stamps")
@StackTrace(false)
final class RequestEvent extends Event
{
    @Label("Request Id")
    long requestId;

    @Label("Phase")
    String phase;

    @Label("Status")
    String status;

    @Label("Error Class")
    String errorClass;

    @Label("HTTP Status")
    int httpStatus;

    @Label("TTFT")
    @Timespan(Timespan.NANOSECONDS)
    long ttft;

    @Label("Stream Setup")
    @Description("Send to the response headers' arrival")
    @Timespan(Timespan.NANOSECONDS)
    long streamSetup;

    @Label("End-to-End")
    @Timespan(Timespan.NANOSECONDS)
    long e2e;

    @Label("Output Tokens")
    long outputTokens;

    @Label("Input Tokens")
    long inputTokens;

    /** Commits one event for the finished request, when a recording wants it. Request stage thread. */
    static void commit(final RequestSlot slot, final RequestMetrics m)
    {
        final RequestEvent e = new RequestEvent();
        if (!e.shouldCommit())
        {
            return;
        }
        e.requestId = slot.requestId;
        e.phase = phase(slot.phase);
        e.status = slot.status == RequestSlot.STATUS_OK ? "ok" :
            slot.status == RequestSlot.STATUS_CANCELLED ? "cancelled" : "error";
        e.errorClass = slot.status == RequestSlot.STATUS_OK ? null : slot.errorClass.label();
        e.httpStatus = slot.httpStatus;
        e.ttft = m.ttftNs;
        e.streamSetup = m.streamSetupNs;
        e.e2e = m.e2eNs;
        e.outputTokens = m.outputTokens;
        e.inputTokens = m.inputTokens;
        e.commit();
    }

    private static String phase(final int phase)
    {
        return switch (phase)
        {
            case RequestSlot.PHASE_WARMUP -> "warmup";
            case RequestSlot.PHASE_RAMP -> "ramp";
            case RequestSlot.PHASE_COLD -> "cold";
            default -> "measure";
        };
    }
}
