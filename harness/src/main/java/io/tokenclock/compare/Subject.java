package io.tokenclock.compare;

import java.util.ArrayList;
import java.util.List;

import io.tokenclock.results.record.RunRecord;
import io.tokenclock.results.AbResult;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Merged;
import io.tokenclock.results.RepetitionSet;
import io.tokenclock.results.Result;
import io.tokenclock.results.RunResultDir;
import io.tokenclock.results.Sweep;

/**
 * What one side of a comparison is: one contract and its runs (one run, or the repetitions that give an interval).
 * A run, a merged run and a repetition set are one subject; an A/B is two (a, b); a sweep one per point; an imported
 * file one per result line. The label of a result that is not whole (a partial run, a set stopped before its end or
 * in progress when it was killed) says so: {@code PATH [PARTIAL: why]}.
 *
 * @param label   the path and role.
 * @param samples its runs' records, at least one.
 */
record Subject(String label, List<RunRecord> samples)
{
    /** @return the subjects of {@code r}, in order; a result that holds no run is one line naming it. */
    static List<Subject> of(final Result r)
    {
        final List<Subject> subjects = subjects(r);
        if (subjects.isEmpty())
        {
            throw new IllegalArgumentException(r.path() + ": expected a " + r.kind().word() + " with runs to " +
                "compare, got none (no point of it holds a record.json)");
        }
        return subjects;
    }

    private static List<Subject> subjects(final Result r)
    {
        final String at = r.path() + (r.partial() == null ? "" : " [PARTIAL: " + r.partial() + "]");
        return switch (r)
        {
            case RunResultDir d -> List.of(new Subject(at, List.of(d.record())));
            case Merged m -> List.of(new Subject(at + " (merged)", List.of(m.record())));
            case RepetitionSet s -> List.of(new Subject(at + " (" + s.runs().size() + " repetitions)",
                records(r, s.runs())));
            case AbResult ab -> List.of(new Subject(at + " variant A", records(r, ab.a())),
                new Subject(at + " variant B", records(r, ab.b())));
            case Sweep s -> each(at, s.runs(), r);
            case Imported i -> each(at, i.runs(), r);
        };
    }

    private static List<Subject> each(final String at, final List<Result.Run> runs, final Result r)
    {
        if (runs.isEmpty() && r.partial() != null)
        {
            records(r, runs);
        }
        final List<Subject> subjects = new ArrayList<>();
        runs.forEach(run -> subjects.add(new Subject(at + " " + run.role(), List.of(run.record()))));
        return subjects;
    }

    private static List<RunRecord> records(final Result r, final List<Result.Run> runs)
    {
        if (runs.isEmpty())
        {
            throw new IllegalArgumentException(r.path() + ": a result without finished runs cannot be compared" +
                (r.partial() == null ? "" : " (it is partial: " + r.partial() + ")"));
        }
        return runs.stream().map(Result.Run::record).toList();
    }

    /** @return the record whose contract stands for the subject: its first run's. */
    RunRecord contract()
    {
        return samples.get(0);
    }
}
