package io.tokenclock.runner;

import java.util.ArrayList;
import java.util.List;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.SegmentSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.load.Stripe;
import io.tokenclock.workload.Workload;

/**
 * The shape of a run's load, derived from its options and workload: the load plan the generator follows, the groups
 * (stages x segments) the run reports on, and each group's SLO. Stateless; shared by the runner and the replay check,
 * so that both derive the same schedule.
 */
public final class RunShape
{
    private RunShape()
    {
    }

    /** @return the load plan of these options (public: a replay rebuilds exactly the same schedule). */
    public static LoadPlan plan(final RunOptions o, final Workload workload)
    {
        final boolean closed = o.closedLoop();
        final RateSchedule schedule = o.rateSchedule();
        final ArrivalProcess arrivals = closed || o.load().fixedSchedule() || o.load().users() != null ? null :
            ArrivalProcess.of(o.load().arrival(), schedule != null ? 1.0 : o.load().rate(), o.load().burstiness(),
                o.workload().seed());
        final Stripe stripe = o.shard().stripe();
        final long requests = o.load().requests() == null ? 0 : o.load().requests();
        // Users go whole to one shard, so a shard of users stops at its part of the count; requests are counted
        // over the whole run by every shard (each draws them all).
        return new LoadPlan(closed, closed ? stripe.share(o.load().concurrency()) : 0, arrivals, o.maxInFlight(),
            o.load().users() != null ? stripe.share(requests) : requests,
            schedule == null && o.load().durationS() != null ? (long)(o.load().durationS() * 1e9) : 0,
            o.state().warmupRequests(), (long)(o.state().warmupDurationS() * 1e9), o.load().fixedSchedule() ?
                workload.traceOffsetsNs() : null,
            schedule, Math.max(1, workload.groupNames().size()), o.load().users() == null ? 0 : o.load().users(),
            o.load().concurrencyStages(), workload.traceSessions());
    }

    /** @return the SLO of a group: its segment's own when declared, else the run's. */
    public static Slo sloFor(final RunOptions o, final String groupName)
    {
        if (o.workload().segments() != null)
        {
            for (final SegmentSpec s : o.workload().segments())
            {
                if ((groupName.equals(s.name()) || groupName.endsWith(" / " + s.name())) && s.slo() != null)
                {
                    return s.slo();
                }
            }
        }
        return o.quality().slo();
    }

    /** @return the names of the run's groups: stages x segments, or whichever of the two there is. */
    public static List<String> groupNames(final RunOptions o, final Workload workload)
    {
        final RateSchedule schedule = o.rateSchedule();
        final List<String> segments = workload.groupNames();
        final List<String> stageNames = o.load().concurrencyStages() != null ?
            o.load().concurrencyStages().stageNames() :
            schedule != null ? schedule.stageNames() : List.of();
        if (stageNames.size() < 2)
        {
            return segments;
        }
        final List<String> names = new ArrayList<>();
        for (final String stage : stageNames)
        {
            if (segments.isEmpty())
            {
                names.add(stage);
            }
            for (final String segment : segments)
            {
                names.add(stage + " / " + segment);
            }
        }
        return names;
    }
}
