package io.tokenclock.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.config.RunOption;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.transport.StampingReport;

/**
 * The one client-health rule: whether the client machine may have moved this run's figures, and by what. It gives the
 * summary's one line about the client, and report.html's, calibrated so that a healthy run says nothing and a starved
 * client says why (docs/RESULTS.md, "The summary"; the measurements behind it: results/client-health/).
 * <p>
 * What can move a stamp depends on who takes it:
 * <ul>
 * <li><b>Kernel stamps</b> (the default): the kernel stamps each segment as it arrives, so a late thread moves no
 * stamp by itself, and hiccups, JIT and safepoints alone are no evidence (they are in the record and in
 * {@code --verbose}). What it can move is a stamp that TCP merged: a read that waits past the next segment gets that
 * segment's stamp, and the client counts each content chunk that took the previous one's
 * ({@code measurement.stamping.shared_stamp_chunks}). The line is said when more chunks, or more first chunks, did so
 * than {@link StampingReport#SHARED_CHUNKS_BOUND} lets (1 in 1,000: the bound, and why there, is
 * {@link StampingReport}'s), in the words of {@link StampingSection#compromised}: how many, how late, and the
 * remedy. The same finding drops the grade ({@code grade.missing}, {@code measurement.stamping: ...}).</li>
 * <li><b>User stamps</b> ({@code --stamping user}, or most reads fell back): a read is stamped when the client's
 * thread gets round to it, so the client's own hiccups, its safepoints and compilation competing with the stamping
 * thread are added to the stamps. The line is said when the hiccup p99 reaches {@code --hiccup-warn-fraction} of the
 * ITL p50, when safepoints stopped every thread for at least one ITL p50 in all, or when the JIT, not confined to the
 * idle scheduling class, compiled for {@value #JIT_WARN_GAPS} ITL p50s.</li>
 * </ul>
 * Worked example, from results/client-health/: the 40 s demo on this 2-core VM at a load average of 11-14, the packet
 * tap on, had a hiccup p99 of 18.2 ms against an ITL p50 of 8.77 ms and no chunk on a later chunk's stamp: it says
 * nothing, though the old hiccup rule would have warned. The same demo without CAP_NET_RAW (no tap) at a load of
 * 15-20 had 659 of 44,640 chunks (1.5%) on a later chunk's stamp, up to 141 ms late: it says so.
 * Stateless and thread-safe.
 */
public final class ClientShaping
{
    /** User stamps: warn when compilation outside the idle class exceeds this many ITL p50s of CPU. */
    static final int JIT_WARN_GAPS = 10;
    /** How the user-stamp line begins. */
    static final String SHAPING = "the client machine may be shaping these figures: ";
    /** The prefix of the kernel-stamp finding among the grade's {@code missing} lines. */
    private static final String STAMPING_GAP = "measurement.stamping: ";

    /**
     * What the user-stamp arm reads, in plain numbers (so that a test sets each one).
     *
     * @param userStamps    whether the reads were stamped in user space (the mode, or most reads fell back).
     * @param itlP50Ms      the inter-chunk latency p50, ms (NaN: no gaps measured, nothing to compare with).
     * @param hiccupP99Ms   the client's hiccup p99, ms (NaN: not measured).
     * @param safepointMs   every thread stopped at safepoints during load, ms in all (NaN: not readable).
     * @param jitMs         compilation during load, ms.
     * @param compilersIdle whether the compiler threads ran in the idle scheduling class.
     */
    public record Evidence(boolean userStamps, double itlP50Ms, double hiccupP99Ms, double safepointMs, long jitMs,
        boolean compilersIdle)
    {
    }

    private ClientShaping()
    {
    }

    /** @return the client-health line of run {@code r}, or empty for a run the client did not shape. */
    public static Optional<String> warning(final RunResult r)
    {
        final Evidence e = of(r);
        if (!e.userStamps())
        {
            return StampingSection.compromised(r.provenance().stamping(), r.clientHealth().stampingSaturation());
        }
        return shaping(causes(e, r.options().measurement().hiccupWarnFraction()));
    }

    /**
     * @param record a record.json, as a tree (report.html reads it so).
     * @return the line of {@link #warning(RunResult)} read from the record's own figures: under kernel stamps the
     * finding the grade lists, under user stamps the causes at the default {@code --hiccup-warn-fraction} (the record
     * does not keep the flag); empty for a record without them (a peer's).
     */
    public static Optional<String> warning(final JsonNode record)
    {
        final JsonNode m = record.path("measurement");
        if (!m.isObject())
        {
            return Optional.empty();
        }
        final JsonNode stamping = m.path("stamping");
        final long reads = stamping.path("reads").asLong(0);
        final boolean user = !"kernel".equals(stamping.path("mode").asText()) ||
            reads > 0 && 2 * stamping.path("fallback_reads").asLong(0) > reads;
        if (!user)
        {
            for (final JsonNode gap : record.path("grade").path("missing"))
            {
                if (gap.asText().startsWith(STAMPING_GAP))
                {
                    return Optional.of(gap.asText().substring(STAMPING_GAP.length()));
                }
            }
            return Optional.empty();
        }
        final Evidence e = new Evidence(true, record.path("report").path("distributions")
            .path("inter_chunk_latency").path("p50").asDouble(Double.NaN), m.path("client_jitter").path("lateness")
            .path("p99").asDouble(Double.NaN), m.path("client_safepoints").path("total_ms").asDouble(Double.NaN),
            m.path("client_jit").path("compilation_ms_during_load").asLong(0),
            m.path("readiness").path("compiler_threads_idle").asInt(0) > 0);
        return shaping(causes(e, RunOption.HICCUP_WARN_FRACTION.defaultValue()));
    }

    private static Optional<String> shaping(final List<String> causes)
    {
        return causes.isEmpty() ? Optional.empty() : Optional.of(SHAPING + String.join("; ", causes) +
            " (record.json measurement)");
    }

    /** @return the evidence of run {@code r}. */
    static Evidence of(final RunResult r)
    {
        final var health = r.clientHealth();
        final StampingReport s = r.provenance().stamping();
        final Distribution gaps = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
        final Distribution hiccups = health.hiccupsMs();
        final boolean user = !"kernel".equals(s.mode()) || s.reads() > 0 && 2 * s.fallbackReads() > s.reads();
        return new Evidence(user, gaps.count() > 0 ? gaps.p50() : Double.NaN,
            hiccups.count() > 0 ? hiccups.p99() : Double.NaN, health.safepointsDuringLoad() == null ? Double.NaN :
                health.safepointsDuringLoad().totalNs() / 1e6, health.jitMsDuringLoad(),
            health.readiness().compilerThreadsIdle() > 0);
    }

    /**
     * @param e                  the run's evidence.
     * @param hiccupWarnFraction {@code --hiccup-warn-fraction}: user stamps' hiccup bound, in ITL p50s.
     * @return each cause of the user-stamp arm found, one phrase each; empty when the client cannot have moved the
     * figures that way (always under kernel stamps).
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
            return causes; // kernel stamps: the shared-stamp chunks decide (warning)
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
