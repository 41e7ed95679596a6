package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;

/**
 * {@code run}'s flags for when it is sent: closed or open loop, stages and ramps, the run's length (A). Each one is
 * documented in docs/CLI.md; {@link Given} says which apply.
 */
final class LoadFlags
{
    @Option(names = "--ramp", description = "Open loop: ramp the rate FROM:TO:SECONDS[:exponential] before the " +
        "measured window (ramp requests are recorded and excluded from metrics).")
    String ramp;

    @Option(names = "--stage",
        description = "Open loop: a stage RATE:SECONDS (repeatable); each is reported on its own.")
    List<String> stage = new ArrayList<>();

    @Option(names = "--concurrency-ramp",
        description = "Closed loop: ramp the concurrency FROM:TO:SECONDS[:exponential] before the measured window.")
    String concurrencyRamp;

    @Option(names = "--concurrency-stage",
        description = "Closed loop: a stage CONCURRENCY:SECONDS (repeatable); each is reported on its own.")
    List<String> concurrencyStage = new ArrayList<>();

    @Option(names = "--min-samples-for", description = "Measure as many requests as a percentile (p90, p99, p99.9) " +
        "needs for its 95%% interval to have an upper end (p99: 368).")
    String minSamplesFor;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        applyLoopKind(o, given);
        applyStagesAndLength(o, given);
    }

    private void applyLoopKind(final RunOptionsBuilder o, final Given given)
    {
        if (given.overContract() && given.typed("--concurrency"))
        {
            // the flag replaces the contract's loop: its rate, and the keys that apply to an open loop alone
            o.rate(null).unset(RunOption.ARRIVAL).unset(RunOption.BURSTINESS).unset(RunOption.MAX_CONCURRENCY);
        }
        if (given.overContract() && given.typed("--rate"))
        {
            o.concurrency(null);
        }
        if (given.set("--ramp") && ramp != null)
        {
            o.ramp(RunCommand.parseRamp(ramp, "--ramp"));
        }
        if (given.set("--min-samples-for") && minSamplesFor != null)
        {
            o.minSamplesFor(parsed("--min-samples-for", minSamplesFor, TailQuantile::parse));
        }
    }

    /** @return the flag's value parsed, or an error line that names the flag. */
    private static <T> T parsed(final String flag, final String value, final Function<String, T> parser)
    {
        try
        {
            return parser.apply(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(flag + " " + ex.getMessage());
        }
    }

    private void applyStagesAndLength(final RunOptionsBuilder o, final Given given)
    {
        if (given.set("--stage"))
        {
            o.stages(new ArrayList<>());
            for (final String s : stage)
            {
                final String[] parts = s.split(":");
                if (parts.length != 2)
                {
                    throw new IllegalArgumentException("--stage must be RATE:SECONDS, got: " + s);
                }
                o.stage(new RateSchedule.Stage(RunCommand.number(parts[0], "--stage"), RunCommand.number(parts[1],
                    "--stage")));
            }
        }
        if (given.typed("--concurrency-ramp"))
        {
            o.concurrencyRamp(RunCommand.parseRamp(concurrencyRamp, "--concurrency-ramp"));
        }
        if (given.typed("--concurrency-stage"))
        {
            final int[] c = new int[concurrencyStage.size()];
            final double[] d = new double[concurrencyStage.size()];
            for (int j = 0; j < c.length; j++)
            {
                final String[] parts = concurrencyStage.get(j).split(":");
                if (parts.length != 2)
                {
                    throw new IllegalArgumentException("--concurrency-stage must be N:SECONDS, got: " +
                        concurrencyStage.get(j));
                }
                c[j] = (int)RunCommand.number(parts[0], "--concurrency-stage");
                d[j] = RunCommand.number(parts[1], "--concurrency-stage");
            }
            o.concurrencyStages(new ConcurrencySchedule(c, d));
        }
    }
}
