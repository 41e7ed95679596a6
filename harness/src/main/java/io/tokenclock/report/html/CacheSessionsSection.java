package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A run's prefix cache and sessions, as a block of their own: the hit rate the requests reported beside the ideal (an
 * infinite cache, from the trace) and the server's counters, speculative decoding's acceptance, and a session trace's
 * sessions with where their time went. Drawn only when the record has them ({@code report.cache},
 * {@code report.sessions}, {@code report.server.spec_decode}); definitions in docs/METRICS.md.
 */
final class CacheSessionsSection
{
    private CacheSessionsSection()
    {
    }

    /** Appends the block, when the run has a cache, speculative-decoding or session figure. */
    static void render(final Page page, final JsonNode report)
    {
        final JsonNode cache = report.path("cache");
        final JsonNode spec = report.path("server").path("spec_decode");
        final JsonNode sessions = report.path("sessions");
        if (!cache.isObject() && !spec.isObject() && !sessions.isObject())
        {
            return;
        }
        page.h2("Prefix cache and sessions");
        final List<List<String>> rows = new ArrayList<>();
        if (cache.isObject())
        {
            rows.add(List.of("hit rate, as the requests reported it", percent(cache.path("hit_rate")),
                Html.value(cache.path("cached_tokens")) + " cached of " +
                Html.value(cache.path("reporting_input_tokens")) + " input tokens, " +
                Html.value(cache.path("reporting_requests")) + " requests"));
            rows.add(List.of("hit rate of an infinite cache (the trace's ideal)", percent(cache.path("ideal_hit_rate")),
                Html.value(cache.path("ideal_cached_tokens")) + " of " + Html.value(cache.path("ideal_input_tokens")) +
                " input tokens"));
            rows.add(List.of("hit rate, the server's counters", percent(cache.path("server_hit_rate")),
                "over the scrapes that bracket the window"));
            if (cache.path("engine_draft_tokens").asLong(0) > 0)
            {
                rows.add(List.of("speculative acceptance, per request (engine)",
                    percent(cache.path("engine_acceptance_rate")), Html.value(cache.path("engine_draft_accepted")) +
                    " of " + Html.value(cache.path("engine_draft_tokens")) + " draft tokens"));
            }
        }
        if (spec.isObject())
        {
            rows.add(List.of("speculative acceptance rate (server)", percent(spec.path("acceptance_rate")),
                Html.value(spec.path("method"))));
            rows.add(List.of("mean accepted length (server)", Html.num(spec.path("mean_accepted_length")),
                "1 + accepted / drafts"));
        }
        if (!rows.isEmpty())
        {
            page.raw(Html.table(List.of("figure", "value", "from"), rows));
        }
        if (sessions.isObject())
        {
            sessions(page, sessions);
        }
    }

    private static void sessions(final Page page, final JsonNode s)
    {
        page.p(Html.value(s.path("format")) + " trace at speed-up " + Html.value(s.path("trace_speedup")) + ": " +
            Html.value(s.path("completed")) + " of " + Html.value(s.path("sessions")) + " sessions closed, " +
            Html.value(s.path("turns")) + " turns, " + Html.value(s.path("subagents")) + " subagents. Their time in " +
            "requests " + Html.value(s.path("in_requests_s")) + " s against the trace's own waits " +
            Html.value(s.path("trace_waits_s")) + " s (" + percent(s.path("trace_wait_share")) + " waiting).");
        final List<List<String>> rows = new ArrayList<>();
        for (final String key : List.of("turns_per_session", "session_e2e"))
        {
            final JsonNode d = s.path(key);
            rows.add(List.of(key, Html.value(d.path("unit")), Html.value(d.path("count")), Html.num(d.path("p50")),
                Html.num(d.path("p90")), Html.num(d.path("p99")), Html.num(d.path("max"))));
        }
        page.raw(Html.table(List.of("per session", "unit", "n", "p50", "p90", "p99", "max"), rows));
    }

    private static String percent(final JsonNode rate)
    {
        return rate.isNumber() ? String.format(Locale.ROOT, "%.1f%%", 100 * rate.asDouble()) : "-";
    }
}
