package io.tokenclock.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;

/**
 * The search for the highest open-loop rate that meets the SLO, as a state machine: {@link #nextRate()} says which
 * rate to run, {@link #record(boolean)} takes whether that run met the SLO, until {@link #done()}.
 * <ol>
 * <li><b>probe</b>: from the start rate, double the rate while it passes; if the start rate fails, halve it instead
 * until one passes (at most {@value #MAX_HALVINGS} times);</li>
 * <li><b>bisect</b> between the last passing rate {@code p} and the first failing one {@code f}: run {@code (p+f)/2}
 * and move whichever end it confirms, until {@code f - p <= tolerance * p}.</li>
 * </ol>
 * Every verdict is confirmed by a repeat: a rate is run twice, and the verdict stands when the two runs agree. When
 * they disagree the rate is run a third time and the majority (two of three) is the verdict; the verdict records all
 * its runs, so a disagreement stays visible. A verdict starts only while at least three runs remain in the budget,
 * so the budget is never exceeded and no verdict is left unconfirmed; a search stopped by the budget has not
 * converged, and its highest passing rate is a lower bound. Not thread-safe: one driver.
 */
public final class SloSearch
{
    /** The most times the start rate is halved looking for one that passes. */
    public static final int MAX_HALVINGS = 10;
    /** The runs a verdict may need: two that agree, or a third to break a tie. */
    static final int RUNS_PER_VERDICT = 3;

    /**
     * @param startRate the first rate run, requests/s (&gt; 0).
     * @param tolerance the bisection stops when the failing rate is within this fraction above the passing one
     *                  (&gt; 0).
     * @param maxRuns   the most runs the search may make (at least {@value #RUNS_PER_VERDICT}).
     */
    public record Settings(double startRate, double tolerance, int maxRuns)
    {
        public Settings
        {
            if (!(startRate > 0) || Double.isInfinite(startRate))
            {
                throw new IllegalArgumentException("the search's start rate must be a positive number: " + startRate);
            }
            if (!(tolerance > 0) || Double.isInfinite(tolerance))
            {
                throw new IllegalArgumentException("the search's tolerance must be > 0: " + tolerance);
            }
            if (maxRuns < RUNS_PER_VERDICT)
            {
                throw new IllegalArgumentException("the search needs at least " + RUNS_PER_VERDICT + " runs: " +
                    maxRuns);
            }
        }
    }

    /**
     * One confirmed verdict.
     *
     * @param rate the rate, requests/s.
     * @param pass whether it met the SLO.
     * @param runs each run's outcome, in order: two that agree, or two that disagree and the tiebreak.
     */
    public record Verdict(double rate, boolean pass, List<Boolean> runs)
    {
        public Verdict
        {
            runs = List.copyOf(runs);
        }

        /** @return whether the first two runs disagreed, so that a third decided. */
        public boolean disagreed()
        {
            return runs.size() > 2;
        }
    }

    /**
     * How the search ended.
     *
     * @param maxRate   the highest rate confirmed to meet the SLO, or NaN when none did.
     * @param firstFail the lowest rate confirmed to miss it, or NaN when none did.
     * @param converged whether the bisection reached the tolerance.
     * @param reason    why the search stopped, one line.
     * @param verdicts  every verdict, in order.
     * @param runs      runs made.
     */
    public record Result(double maxRate, double firstFail, boolean converged, String reason, List<Verdict> verdicts,
        int runs)
    {
        public Result
        {
            verdicts = List.copyOf(verdicts);
        }
    }

    private enum Phase
    {
        UP, DOWN, BISECT, DONE
    }

    private final Settings settings;
    private final List<Verdict> verdicts = new ArrayList<>();
    private final List<Boolean> pending = new ArrayList<>();
    private Phase phase = Phase.UP;
    private double rate;
    private double lastPass = Double.NaN;
    private double firstFail = Double.NaN;
    private int runs;
    private int halvings;
    private boolean converged;
    private String reason;

    /** A search at its start: the next run is {@code settings.startRate()}. */
    public SloSearch(final Settings settings)
    {
        this.settings = settings;
        this.rate = settings.startRate();
    }

    /**
     * Runs a whole search: each rate through {@code meetsSlo}, which runs it and says whether it met the SLO.
     *
     * @return how the search ended.
     */
    public static Result run(final Settings settings, final DoublePredicate meetsSlo)
    {
        final SloSearch search = new SloSearch(settings);
        while (!search.done())
        {
            search.record(meetsSlo.test(search.nextRate()));
        }
        return search.result();
    }

    /** @return whether the search has ended. */
    public boolean done()
    {
        return phase == Phase.DONE;
    }

    /** @return the rate to run next, requests/s. */
    public double nextRate()
    {
        if (done())
        {
            throw new IllegalStateException("the search has ended: " + reason);
        }
        return rate;
    }

    /** @return which run of its verdict the next one is: 1, 2, or 3 for a tiebreak. */
    public int nextRunOfVerdict()
    {
        return pending.size() + 1;
    }

    /** Takes the outcome of the run at {@link #nextRate()}: whether it met the SLO. */
    public void record(final boolean pass)
    {
        nextRate();
        runs++;
        pending.add(pass);
        final boolean agreed = pending.size() == 2 && pending.get(0) == pending.get(1);
        if (agreed || pending.size() == RUNS_PER_VERDICT)
        {
            final boolean verdict = agreed ? pass : majority();
            verdicts.add(new Verdict(rate, verdict, pending));
            pending.clear();
            decide(verdict);
            if (!done() && settings.maxRuns() - runs < RUNS_PER_VERDICT)
            {
                finish(false, "the run budget (" + settings.maxRuns() + ") was spent before the bisection " +
                    "converged: the highest passing rate is a lower bound");
            }
        }
    }

    private boolean majority()
    {
        int passes = 0;
        for (final boolean p : pending)
        {
            passes += p ? 1 : 0;
        }
        return 2 * passes > pending.size();
    }

    private void decide(final boolean pass)
    {
        if (pass)
        {
            lastPass = rate;
        }
        else
        {
            firstFail = rate;
        }
        switch (phase)
        {
            case UP -> probeUp(pass);
            case DOWN -> probeDown(pass);
            default -> bisect();
        }
    }

    private void probeUp(final boolean pass)
    {
        if (pass)
        {
            rate *= 2;
        }
        else if (Double.isNaN(lastPass))
        {
            phase = Phase.DOWN;
            probeDown(false);
        }
        else
        {
            phase = Phase.BISECT;
            bisect();
        }
    }

    private void probeDown(final boolean pass)
    {
        if (pass)
        {
            phase = Phase.BISECT;
            bisect();
        }
        else if (halvings == MAX_HALVINGS)
        {
            finish(false, "no rate met the SLO, down to " + rate + " req/s");
        }
        else
        {
            halvings++;
            rate /= 2;
        }
    }

    private void bisect()
    {
        if (firstFail - lastPass <= settings.tolerance() * lastPass)
        {
            finish(true, "bisected until the first failing rate was within " + settings.tolerance() +
                " of the last passing one");
        }
        else
        {
            rate = (lastPass + firstFail) / 2;
        }
    }

    private void finish(final boolean converged, final String why)
    {
        phase = Phase.DONE;
        reason = why;
        this.converged = converged;
    }

    /** @return how the search ended; before the end, how it stands. */
    public Result result()
    {
        return new Result(lastPass, firstFail, converged, done() ? reason : "in progress", verdicts, runs);
    }
}
