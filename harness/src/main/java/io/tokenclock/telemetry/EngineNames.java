package io.tokenclock.telemetry;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The names under which vLLM, SGLang, TGI and llama.cpp's server export the same things, mapped to common fields;
 * every other series is kept raw, as scraped. For each field the first name a scrape holds wins, so an engine's
 * current name is listed before its deprecated one. Where the sources were read: docs/RESULTS.md,
 * {@code server_metrics.jsonl}.
 * <p>
 * Every label set of a name is combined (summed, or the maximum for KV-cache usage): a server with several models
 * or data-parallel engines reports one figure for all of them. Thread-safe: stateless.
 */
public final class EngineNames
{
    /** How the label sets of one name combine into one figure. */
    enum Combine
    {
        SUM, MAX, MEAN
    }

    /** A scalar common field and the sample names that carry it, in order of preference. */
    public enum Field
    {
        /** Requests being processed (in the batch), a gauge. */
        RUNNING("running", Combine.SUM, "vllm:num_requests_running", "sglang:num_running_reqs",
            "tgi_batch_current_size", "llamacpp:requests_processing"),
        /** Requests queued for a slot, a gauge. */
        WAITING("waiting", Combine.SUM, "vllm:num_requests_waiting", "sglang:num_queue_reqs", "tgi_queue_size",
            "llamacpp:requests_deferred"),
        /** KV-cache usage, a gauge in [0, 1]. */
        KV_USAGE("kv_usage", Combine.MAX, "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc",
            "sglang:token_usage", "llamacpp:kv_cache_usage_ratio"),
        /** A prefix-cache hit rate the engine computes itself, a gauge in [0, 1]. */
        CACHE_HIT_RATE("cache_hit_rate", Combine.MEAN, "sglang:cache_hit_rate", "vllm:gpu_prefix_cache_hit_rate"),
        /**
         * Prefix-cache hits, a counter of tokens: vLLM V1's, or SGLang's cached prompt tokens (every
         * {@code cache_source} label summed: device, host, storage).
         */
        PREFIX_CACHE_HITS("prefix_cache_hits", Combine.SUM, "vllm:prefix_cache_hits_total",
            "vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits",
            "sglang:cached_tokens_total"),
        /**
         * Prefix-cache queries, a counter of tokens: vLLM V1's, or for SGLang its prompt tokens, every one of which
         * its radix cache is asked for (SGLang exports no query counter of its own).
         */
        PREFIX_CACHE_QUERIES("prefix_cache_queries", Combine.SUM, "vllm:prefix_cache_queries_total",
            "vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries",
            "sglang:prompt_tokens_total"),
        /** Speculative-decoding drafts (one per request per step that drafted), a counter (vLLM). */
        SPEC_DRAFTS("spec_decode_drafts", Combine.SUM, "vllm:spec_decode_num_drafts_total",
            "vllm:spec_decode_num_drafts"),
        /** Draft tokens proposed, a counter (vLLM). */
        SPEC_DRAFT_TOKENS("spec_decode_draft_tokens", Combine.SUM, "vllm:spec_decode_num_draft_tokens_total",
            "vllm:spec_decode_num_draft_tokens"),
        /** Draft tokens the target model accepted, a counter (vLLM). */
        SPEC_ACCEPTED_TOKENS("spec_decode_accepted_tokens", Combine.SUM,
            "vllm:spec_decode_num_accepted_tokens_total", "vllm:spec_decode_num_accepted_tokens"),
        /** Mean accepted length (accepted drafts + the bonus token per step), a gauge the engine computes (SGLang). */
        SPEC_ACCEPT_LENGTH("spec_accept_length", Combine.MEAN, "sglang:spec_accept_length"),
        /** Acceptance rate (accepted / proposed draft tokens), a gauge the engine computes (SGLang). */
        SPEC_ACCEPT_RATE("spec_accept_rate", Combine.MEAN, "sglang:spec_accept_rate"),
        /** Prompt tokens processed, a counter. */
        PROMPT_TOKENS("prompt_tokens", Combine.SUM, "vllm:prompt_tokens_total", "sglang:prompt_tokens_total",
            "llamacpp:prompt_tokens_total", "tgi_request_input_length_sum"),
        /** Tokens generated, a counter. */
        GENERATION_TOKENS("generation_tokens", Combine.SUM, "vllm:generation_tokens_total",
            "sglang:generation_tokens_total", "llamacpp:tokens_predicted_total", "tgi_request_generated_tokens_sum");

        private final String key;
        private final Combine combine;
        private final List<String> names;

        Field(final String key, final Combine combine, final String... names)
        {
            this.key = key;
            this.combine = combine;
            this.names = List.of(names);
        }

        /** @return the field's name in server_metrics.jsonl and record.json. */
        public String key()
        {
            return key;
        }

        /** @return the sample names that carry it, in order of preference. */
        public List<String> names()
        {
            return names;
        }
    }

    /** A latency histogram the engine exports, in seconds, and the names it goes by, in order of preference. */
    public enum Latency
    {
        /** Time to first token. */
        TTFT("ttft", "vllm:time_to_first_token_seconds", "sglang:time_to_first_token_seconds"),
        /**
         * Time per output token: vLLM's per-request histogram first (what the client's TPOT is); its older
         * per-token {@code time_per_output_token_seconds} and TGI's per-request mean after.
         */
        TPOT("tpot", "vllm:request_time_per_output_token_seconds", "vllm:time_per_output_token_seconds",
            "sglang:time_per_output_token_seconds", "tgi_request_mean_time_per_token_duration"),
        /** Inter-token latency, one observation per token. */
        ITL("itl", "vllm:inter_token_latency_seconds", "sglang:inter_token_latency_seconds"),
        /** The whole request, as the engine saw it. */
        E2E("e2e", "vllm:e2e_request_latency_seconds", "sglang:e2e_request_latency_seconds", "tgi_request_duration"),
        /** Time waiting in the engine's queue. */
        QUEUE("queue", "vllm:request_queue_time_seconds", "tgi_request_queue_duration");

        private final String key;
        private final List<String> names;

        Latency(final String key, final String... names)
        {
            this.key = key;
            this.names = List.of(names);
        }

        /** @return the latency's name in record.json. */
        public String key()
        {
            return key;
        }

        /** @return the histogram family names that carry it, in order of preference. */
        public List<String> names()
        {
            return names;
        }
    }

    /** Sample name prefixes that identify an engine, tried in this order. */
    private static final String[][] ENGINES = {{"vllm:", "vllm"}, {"sglang:", "sglang"}, {"llamacpp:", "llama.cpp"},
        {"tgi_", "tgi"}};

    private EngineNames()
    {
    }

    /** @return the scrape mapped to the common fields. */
    public static CommonFields map(final Scrape scrape)
    {
        final Map<String, List<Sample>> byName = scrape.byName();
        final Map<Field, Double> values = new EnumMap<>(Field.class);
        final Map<Field, String> sources = new EnumMap<>(Field.class);
        for (final Field f : Field.values())
        {
            for (final String name : f.names)
            {
                final List<Sample> samples = byName.get(name);
                if (samples != null && !samples.isEmpty())
                {
                    values.put(f, combine(samples, f.combine));
                    sources.put(f, name);
                    break;
                }
            }
        }
        final Map<Latency, BucketHistogram> latencies = new EnumMap<>(Latency.class);
        final Map<Latency, String> latencySources = new EnumMap<>(Latency.class);
        for (final Latency l : Latency.values())
        {
            for (final String family : l.names)
            {
                final BucketHistogram h = BucketHistogram.of(byName, family);
                if (h != null)
                {
                    latencies.put(l, h);
                    latencySources.put(l, family);
                    break;
                }
            }
        }
        return new CommonFields(engine(scrape), values, sources, latencies, latencySources);
    }

    /** @return the engine whose names the scrape holds: vllm, sglang, llama.cpp or tgi; "unknown" if none. */
    static String engine(final Scrape scrape)
    {
        for (final String[] engine : ENGINES)
        {
            for (final Sample s : scrape.samples())
            {
                if (s.name().startsWith(engine[0]))
                {
                    return engine[1];
                }
            }
        }
        return "unknown";
    }

    private static double combine(final List<Sample> samples, final Combine how)
    {
        double acc = how == Combine.MAX ? Double.NEGATIVE_INFINITY : 0;
        for (final Sample s : samples)
        {
            acc = how == Combine.MAX ? Math.max(acc, s.value()) : acc + s.value();
        }
        return how == Combine.MEAN ? acc / samples.size() : acc;
    }
}
