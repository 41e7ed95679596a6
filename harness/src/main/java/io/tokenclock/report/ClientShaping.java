package io.tokenclock.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.config.RunOption;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.result.RunResult;
import io.tokenclock.transport.StampingReport;

/**
 * Whether the client machine may have moved this run's figures, and by what: the rule behind the summary's
 * "the client machine may be shaping these figures" line, calibrated so that a healthy run says nothing and a starved
 * client says why (docs/RESULTS.md, "The summary"; the measurements behind the thresholds: results/client-health/).
 * <p>
 * What can move a stamp depends on who takes it:
 * <ul>
 * <li><b>User stamps</b> ({@code --stamping user}, or reads that fell back): a read is stamped when the client's
 * thread gets round to it, so the client's own hiccups, its safepoints and compilation competing with the stamping
 * thread are added to the stamps. The warning fires when the hiccup p99 reaches {@code --hiccup-warn-fraction} of
 * the ITL p50, when safepoints stopped every thread for at least one ITL p50 in all, or when the JIT, not confined to
 * the idle scheduling class, compiled for {@value #JIT_WARN_GAPS} ITL p50s.</li>
 * <li><b>Kernel stamps</b> (the default): the kernel stamps each segment as it arrives, so a late thread moves no
 * stamp by itself, and hiccups, JIT and safepoints alone are no evidence (they are in the record and in
 * {@code --verbose}). What it can move is a stamp that TCP merged: a read that waits longer than the gap to the next
 * segment gets that segment's stamp. So the warning fires only when both signs of it are there: the client's receive
 * delay (kernel stamp to user stamp) p99 reaches {@value #RECEIVE_DELAY_GAPS} ITL p50 and more than
 * {@value #SHARED_STAMP_PERCENT}% of the reads shared the previous read's stamp.</li>
 * </ul>
 * Worked example, from results/client-health/: a 20 s demo on this 2-core VM with the machine's other builds at a
 * load average of 31-37 had a receive delay p99 of 72.4 ms against an ITL p50 of 8.7 ms and 6.6% of its reads on a
 * shared stamp: it warns; the same demo at a quieter moment had ... and does not.
 * Stateless and thread-safe.
 */
public final class ClientShaping
{
    /** Kernel stamps: the receive delay p99, in ITL p50s, from which reads wait long enough to be merged. */
    static final double RECEIVE_DELAY_GAPS = 1.0;
    /** Kernel stamps: the share of reads on the previous read's stamp, %, above which merges moved stamps. */
    static final double SHARED_STAMP_PERCENT = 2.0;
    /** User stamps: warn when compilation outside the idle class exceeds this many ITL p50s of CPU. */
    static final int JIT_WARN_GAPS = 10;

    /**
     * What the rule reads, in plain numbers (so that a test sets each one).
     *
     * @param userStamps        whether the reads were stamped in user space (the mode, or most reads fell back).
     * @param itlP50Ms          the inter-chunk latency p50, ms (NaN: no gaps measured, nothing to compare with).
     * @param hiccupP99Ms       the client's hiccup p99, ms (NaN: not measured).
     * @param safepointMs       every thread stopped at safepoints during load, ms in all (NaN: not readable).
     * @param jitMs             compilation during load, ms.
     * @param compilersIdle     whether the compiler threads ran in the idle scheduling class.
     * @param receiveDelayP99Ms the client's receive delay p99, ms (NaN: user stamps).
     * @param reads             reads stamped (kernel client).
     * @param sharedStamps      reads whose kernel stamp equalled the previous read's on the same connection.
     */
    public record Evidence(boolean userStamps, double itlP50Ms, double hiccupP99Ms, double safepointMs, long jitMs,
        boolean compilersIdle, double receiveDelayP99Ms, long reads, long sharedStamps)
    {
        /** @return the share of reads on a shared stamp, %; 0 without reads. */
        public double sharedPercent()
        {
            return reads > 0 ? 100.0 * sharedStamps / reads : 0;
        }
    }

    private ClientShaping()
    {
    }

    /** @return the evidence of run {@code r}. */
    public static Evidence of(final RunResult r)
    {
        final var health = r.clientHealth();
        final StampingReport s = r.provenance().stamping();
        final Distribution gaps = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
        final Distribution hiccups = health.hiccupsMs();
        final StampingReport.ReceiveDelay delay = s.receiveDelay();
        final boolean user = !"kernel".equals(s.mode()) || s.reads() > 0 && 2 * s.fallbackReads() > s.reads();
        return new Evidence(user, gaps.count() > 0 ? gaps.p50() : Double.NaN,
            hiccups.count() > 0 ? hiccups.p99() : Double.NaN, health.safepointsDuringLoad() == null ? Double.NaN :
                health.safepointsDuringLoad().totalNs() / 1e6, health.jitMsDuringLoad(),
            health.readiness().compilerThreadsIdle() > 0, delay == null || delay.count() == 0 ? Double.NaN :
                delay.p99Ns() / 1e6, s.reads(), s.sharedStamps());
    }

    /**
     * @param record a record.json, as a tree (report.html reads it so).
     * @return the causes of {@link #causes} read from the record's own figures, at the default
     * {@code --hiccup-warn-fraction} (the record does not keep the flag); empty for a record without them (a peer's).
     */
    public static List<String> causes(final JsonNode record)
    {
        final JsonNode m = record.path("measurement");
        final JsonNode stamping = m.path("stamping");
        final JsonNode delay = record.path("report").path("client_receive_delay");
        final long reads = stamping.path("reads").asLong(0);
        final boolean user = !"kernel".equals(stamping.path("mode").asText()) ||
            reads > 0 && 2 * stamping.path("fallback_reads").asLong(0) > reads;
        final Evidence e = new Evidence(user, record.path("report").path("distributions").path("inter_chunk_latency")
            .path("p50").asDouble(Double.NaN), m.path("client_jitter").path("lateness").path("p99")
            .asDouble(Double.NaN), m.path("client_safepoints").path("total_ms").asDouble(Double.NaN),
            m.path("client_jit").path("compilation_ms_during_load").asLong(0),
            m.path("readiness").path("compiler_threads_idle").asInt(0) > 0, delay.path("p99").isNumber() ?
                delay.path("p99").asDouble() / 1e3 : Double.NaN, reads, stamping.path("shared_stamp_reads").asLong(0));
        return m.isObject() ? causes(e, RunOption.HICCUP_WARN_FRACTION.defaultValue()) : List.of();
    }

    /**
     * @param e                  the run's evidence.
     * @param hiccupWarnFraction {@code --hiccup-warn-fraction}: user stamps' hiccup bound, in ITL p50s.
     * @return each cause found, one phrase each; empty when the client cannot have moved the figures.
     */
    public static List<String> causes(final Evidence e, final double hiccupWarnFraction)
    {
        final List<String> causes = new ArrayList<>();
        final double gap = e.itlP50Ms();
        if (!(gap > 0))
        {
            return causes;
        }
        if (!e.userStamps())
        {
            if (e.receiveDelayP99Ms() >= RECEIVE_DELAY_GAPS * gap && e.sharedPercent() > SHARED_STAMP_PERCENT)
            {
                causes.add(String.format(Locale.ROOT, "it read late: client receive delay p99 %.3f ms against an " +
                    "inter-chunk latency p50 of %.3f ms, and %d reads (%.1f%%) took a later segment's stamp " +
                    "(--packet-tap, or fewer other processes on the client's cores)", e.receiveDelayP99Ms(), gap,
                    e.sharedStamps(), e.sharedPercent()));
            }
            return causes;
        }
        if (e.hiccupP99Ms() >= hiccupWarnFraction * gap)
        {
            causes.add(String.format(Locale.ROOT, "its own hiccups (p99 %.3f ms) reach %.0f%% of the inter-chunk " +
                "latency p50 (%.3f ms), and reads are stamped in user space", e.hiccupP99Ms(),
                100.0 * e.hiccupP99Ms() / gap, gap));
        }
        if (e.safepointMs() >= gap)
        {
            causes.add(String.format(Locale.ROOT, "its threads were stopped at safepoints for %.1f ms during load " +
                "(GC pauses included), at least one inter-chunk latency (p50 %.3f ms): chunks arriving then were " +
                "stamped late", e.safepointMs(), gap));
        }
        if (!e.compilersIdle() && e.jitMs() >= JIT_WARN_GAPS * gap)
        {
            causes.add(String.format(Locale.ROOT, "the JIT compiled for %d ms during load, over %d inter-chunk " +
                "latencies (p50 %.3f ms), competing with the stamping thread", e.jitMs(), JIT_WARN_GAPS, gap));
        }
        return causes;
    }
}
