package io.tokenclock.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An open-loop arrival rate that changes over time: an optional ramp (linear or exponential from one rate to
 * another), then a list of stages of constant rate, each reported on its own.
 * <p>
 * Arrivals follow by time change: the arrival process draws gaps at rate 1 ("operational time" u), and request i
 * starts at t_i = L^-1(u_i), where L(t) is the integral of the rate from 0 to t. For Poisson arrivals this is the
 * standard construction of a non-homogeneous Poisson process; for gamma arrivals it keeps the declared burstiness
 * locally while the mean rate follows the schedule.
 * <p>
 * Example: a ramp from 1 to 8 req/s over 60 s (linear), then stages of 8 req/s for 120 s and 12 req/s for 120 s: the
 * ramp holds L(60) = 270 expected arrivals, each stage 960 and 1,440. Immutable and thread-safe.
 */
public final class RateSchedule
{
    /** A stage of constant rate. */
    public record Stage(double ratePerSecond, double durationS)
    {
        public Stage
        {
            if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond))
            {
                throw new IllegalArgumentException("a stage's rate must be > 0: " + ratePerSecond);
            }
            if (!(durationS > 0) || Double.isInfinite(durationS))
            {
                throw new IllegalArgumentException("a stage's duration must be > 0 s: " + durationS);
            }
        }
    }

    /** A ramp of the rate from {@code fromRate} to {@code toRate} over {@code durationS}. */
    public record Ramp(double fromRate, double toRate, double durationS, boolean exponential)
    {
        public Ramp
        {
            if (fromRate < 0 || !(toRate > 0) || !(durationS > 0))
            {
                throw new IllegalArgumentException("a ramp needs from >= 0, to > 0 and duration > 0");
            }
            if (exponential && !(fromRate > 0))
            {
                throw new IllegalArgumentException("an exponential ramp needs from > 0");
            }
        }

        double integral(final double t)
        {
            final double a = fromRate;
            final double b = toRate;
            final double tEnd = durationS;
            if (exponential && a != b)
            {
                final double k = StrictMath.log(b / a) / tEnd;
                return a * (StrictMath.exp(k * t) - 1) / k;
            }
            return a * t + (b - a) * t * t / (2 * tEnd);
        }

        double inverse(final double u)
        {
            final double a = fromRate;
            final double b = toRate;
            final double tEnd = durationS;
            if (a == b)
            {
                return u / a;
            }
            if (exponential)
            {
                final double k = StrictMath.log(b / a) / tEnd;
                return StrictMath.log(1 + k * u / a) / k;
            }
            final double c = (b - a) / tEnd;
            return (-a + StrictMath.sqrt(a * a + 2 * c * u)) / c;
        }
    }

    private final Ramp ramp;
    private final List<Stage> stages;
    private final double rampMass;
    private final double[] stageStartS;
    private final double[] stageStartMass;

    /** A schedule of an optional {@code ramp} (null for none) followed by {@code stages}, at least one. */
    public RateSchedule(final Ramp ramp, final List<Stage> stages)
    {
        if (stages.isEmpty())
        {
            throw new IllegalArgumentException("a rate schedule needs at least one stage");
        }
        this.ramp = ramp;
        this.stages = List.copyOf(stages);
        this.rampMass = ramp == null ? 0 : ramp.integral(ramp.durationS());
        this.stageStartS = new double[stages.size() + 1];
        this.stageStartMass = new double[stages.size() + 1];
        double t = ramp == null ? 0 : ramp.durationS();
        double mass = rampMass;
        for (int j = 0; j < stages.size(); j++)
        {
            stageStartS[j] = t;
            stageStartMass[j] = mass;
            t += stages.get(j).durationS();
            mass += stages.get(j).ratePerSecond() * stages.get(j).durationS();
        }
        stageStartS[stages.size()] = t;
        stageStartMass[stages.size()] = mass;
    }

    /** @return the time in seconds at which the integrated rate reaches {@code u}, or +infinity past the end. */
    public double timeAt(final double u)
    {
        if (u < rampMass)
        {
            return ramp.inverse(u);
        }
        for (int j = 0; j < stages.size(); j++)
        {
            if (u < stageStartMass[j + 1])
            {
                return stageStartS[j] + (u - stageStartMass[j]) / stages.get(j).ratePerSecond();
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** @return the stage index at time {@code t} seconds, or -1 during the ramp. */
    public int stageAt(final double t)
    {
        if (ramp != null && t < ramp.durationS())
        {
            return -1;
        }
        for (int j = 0; j < stages.size(); j++)
        {
            if (t < stageStartS[j + 1])
            {
                return j;
            }
        }
        return stages.size() - 1;
    }

    /** @return the ramp's length in seconds (0 without a ramp). */
    public double rampEndS()
    {
        return ramp == null ? 0 : ramp.durationS();
    }

    /** @return the schedule's length in seconds: ramp plus every stage. */
    public double endS()
    {
        return stageStartS[stages.size()];
    }

    /** @return the expected number of arrivals over the whole schedule. */
    public double expectedArrivals()
    {
        return stageStartMass[stages.size()];
    }

    public List<Stage> stages()
    {
        return stages;
    }

    /** @return reported names of the stages, e.g. {@code stage 1: 4 req/s, 60 s}. */
    public List<String> stageNames()
    {
        final List<String> names = new ArrayList<>();
        for (int j = 0; j < stages.size(); j++)
        {
            names.add(String.format(Locale.ROOT, "stage %d: %s req/s, %s s", j + 1, fmt(stages.get(j).ratePerSecond()),
                fmt(stages.get(j).durationS())));
        }
        return names;
    }

    private static String fmt(final double v)
    {
        return v == Math.rint(v) ? String.valueOf((long)v) : String.valueOf(v);
    }

    /** @return a one-line description for the record. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder();
        if (ramp != null)
        {
            sb.append(String.format(Locale.ROOT, "%s ramp %s -> %s req/s over %s s; ",
                ramp.exponential() ? "exponential" : "linear", fmt(ramp.fromRate()), fmt(ramp.toRate()),
                fmt(ramp.durationS())));
        }
        sb.append(String.join("; ", stageNames()));
        return sb.toString();
    }
}
