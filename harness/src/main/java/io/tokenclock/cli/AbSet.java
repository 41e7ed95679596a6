package io.tokenclock.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.tokenclock.report.AbReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;

/**
 * An A/B's runs so far, and the two files that make its directory readable: {@code index.json} (kind {@code ab}, the
 * finished runs as members) and {@code ab.json}. Both are written as the set begins and again after each run, each
 * whole ({@code WholeFile}), so that a set stopped at any moment, by {@code kill -9} too, is read by {@code record},
 * {@code report} and {@code compare} as what it is: partial, with the runs it finished. A run not finished is not a
 * member (its directory may hold no record yet). Not thread-safe: the {@code ab} command's thread.
 */
final class AbSet
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private final Path contractA;
    private final Path contractB;
    private final Path base;
    private final int planned;
    private final List<String> order = new ArrayList<>();
    private final List<RunResult> a = new ArrayList<>();
    private final List<RunResult> b = new ArrayList<>();

    AbSet(final Path contractA, final Path contractB, final Path base, final int planned)
    {
        this.contractA = contractA;
        this.contractB = contractB;
        this.base = base;
        this.planned = planned;
    }

    Path base()
    {
        return base;
    }

    List<RunResult> a()
    {
        return a;
    }

    List<RunResult> b()
    {
        return b;
    }

    /** @return the runs made (finished, whole or cut short). */
    int made()
    {
        return order.size();
    }

    /** Adds a finished run of variant A ({@code isA}) or B. */
    void add(final boolean isA, final RunResult run)
    {
        order.add(isA ? "A" : "B");
        (isA ? a : b).add(run);
    }

    /** @return the {@code partial} of a set still running: how far it got. */
    String inProgress()
    {
        return "in progress: " + made() + " of " + planned + " runs made (ab.json is rewritten after each run; " +
            "read while it says so, the A/B was stopped before its end or is still running)";
    }

    /**
     * Writes {@code ab.json} and {@code index.json} for the runs so far.
     *
     * @param partialReason why the set is not whole, or null for a set that ran to its end.
     * @param out           where the table goes; null: nowhere (the writes during the set).
     */
    void write(final String partialReason, final PrintStream out) throws IOException
    {
        AbReport.write(contractA, contractB, order, a, b, partialReason, base.resolve("ab.json"),
            out == null ? QUIET : out);
        final List<Index.Member> members = new ArrayList<>();
        for (int k = 1; k <= Math.max(a.size(), b.size()); k++)
        {
            if (k <= a.size())
            {
                members.add(new Index.Member(AbCommand.runDir(base, "A", k).toAbsolutePath().toString(), "a " + k));
            }
            if (k <= b.size())
            {
                members.add(new Index.Member(AbCommand.runDir(base, "B", k).toAbsolutePath().toString(), "b " + k));
            }
        }
        Index.write(base, Kind.AB, members);
    }
}
