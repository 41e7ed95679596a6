package io.tokenclock.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.health.ThreadCpu;
import io.tokenclock.results.record.MeasurementSection;

/**
 * The client's CPU by thread group, in record.json ({@code measurement.client_cpu_by_thread}, beside
 * {@code client_cost}) and as one line of the console summary. docs/RESULTS.md describes each field.
 */
final class ClientCpuSection
{
    static final String METHOD = "each thread's time on CPU from /proc/self/task/TID/schedstat (first field, ns, " +
        "exact; user and system together), grouped by its name (/proc/self/task/TID/comm, 15 bytes), from the start " +
        "of load to the end of the drain (client_cost's window): a thread's reading at the end minus its reading " +
        "at the start, or all of it when it was born in the window; a thread stopped before the end counts up to " +
        "its last reading (its own as it ended, or one taken as the drain ended); ended is the process total " +
        "(client_cost, 10 ms ticks) minus the sum over the threads seen, at least 0: threads that ended in the " +
        "window unread, and any whose files could not be read; total_ms is the sum over the groups; runs is " +
        "schedstat's third field over the same window (the times the group's threads were switched in), and " +
        "us_per_run cpu_ms over runs";

    private ClientCpuSection()
    {
    }

    /** @return {@code measurement.client_cpu_by_thread}, or null when the run carried none. */
    static MeasurementSection.ClientCpuByThread of(final ThreadCpu.ByGroup g, final long chunks)
    {
        if (g == null)
        {
            return null;
        }
        if (g.unavailable() != null)
        {
            return new MeasurementSection.ClientCpuByThread(METHOD, g.unavailable(), g.processNs() / 1e6, 0, null);
        }
        final long totalNs = g.totalNs();
        final Map<String, MeasurementSection.ClientCpuByThread.GroupCpu> groups = new LinkedHashMap<>();
        for (final Map.Entry<ThreadCpu.Group, ThreadCpu.GroupCpu> e : g.groups().entrySet())
        {
            final long ns = e.getValue().cpuNs();
            final long runs = e.getValue().runs();
            groups.put(e.getKey().key(), new MeasurementSection.ClientCpuByThread.GroupCpu(ns / 1e6,
                totalNs > 0 ? (double)ns / totalNs : 0, chunks > 0 ? ns / 1e3 / chunks : 0, runs,
                runs > 0 ? ns / 1e3 / runs : 0, e.getValue().threads()));
        }
        return new MeasurementSection.ClientCpuByThread(METHOD, null, g.processNs() / 1e6, totalNs / 1e6, groups);
    }

    /** @return the console's line: each group that ran, in µs per chunk and share; or why there are none. */
    static String line(final MeasurementSection.ClientCpuByThread c)
    {
        if (c.groups() == null)
        {
            return "client CPU by thread: unavailable (" + c.unavailable() + ")";
        }
        final StringBuilder b = new StringBuilder("client CPU by thread (us per chunk):");
        String sep = " ";
        for (final Map.Entry<String, MeasurementSection.ClientCpuByThread.GroupCpu> e : c.groups().entrySet())
        {
            if (e.getValue().cpuMs() > 0)
            {
                b.append(sep).append(e.getKey()).append(String.format(Locale.ROOT, " %.1f (%.0f%%)",
                    e.getValue().usPerChunk(), 100 * e.getValue().share()));
                sep = ", ";
            }
        }
        return b.toString();
    }
}
