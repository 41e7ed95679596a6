package io.tokenclock.compare;

import java.util.List;

/**
 * The facts of a contract that {@code compare} and {@code ab} diff, by protocol group, and the eight refusal rules:
 * two results are compared only when their timing endpoints, token counting, formulas version, percentile method,
 * workload hash, load model, warm-up and failure handling are the same (docs/RESULTS.md, "compare.json"). One list,
 * shared by both commands.
 */
final class Facts
{
    static final String TIMING = "timing endpoints";
    static final String TOKENS = "token counting";
    static final String FORMULAS = "formulas version";
    static final String PERCENTILES = "percentile method";
    static final String WORKLOAD = "workload hash";
    static final String LOAD_MODEL = "load model";
    static final String WARMUP = "warm-up";
    static final String FAILURES = "failure handling";

    /** The refusal rules, in the order they are reported. */
    static final List<String> RULES = List.of(TIMING, TOKENS, FORMULAS, PERCENTILES, WORKLOAD, LOAD_MODEL, WARMUP,
        FAILURES);

    /** Every fact, by group in the protocol's order. */
    static final List<Fact> ALL = List.of(
        // the API is the whole request's shape (path, headers, body, events): a workload fact, whose change the
        // workload hash follows
        new Fact("W", "runtime.api", true, null, r -> r.runtime().api()),
        new Fact("W", "workload.prompts", false, null, r -> r.workload().prompts()),
        new Fact("W", "workload.input_tokens", true, null, r -> r.workload().inputTokens()),
        new Fact("W", "workload.output_tokens", true, null, r -> r.workload().outputTokens()),
        new Fact("W", "workload.correlation", true, null, r -> r.workload().correlation()),
        new Fact("W", "workload.seed", true, null, r -> r.workload().seed()),
        new Fact("W", "workload.cancellation", true, null, r -> r.workload().cancellation()),
        new Fact("W", "workload.hash", false, WORKLOAD, r -> r.workload().hash()),
        new Fact("A", "load.mode", true, LOAD_MODEL, r -> r.load().mode()),
        new Fact("A", "load.arrival", true, LOAD_MODEL, r -> r.load().arrival()),
        new Fact("A", "load.scenario", true, null, r -> r.load().scenario()),
        new Fact("A", "load.rate_per_s", true, null, r -> r.load().ratePerS()),
        new Fact("A", "load.concurrency", true, null, r -> r.load().concurrency()),
        new Fact("A", "load.burstiness", true, null, r -> r.load().burstiness()),
        new Fact("A", "load.rate_schedule", true, null, r -> r.load().rateSchedule()),
        new Fact("A", "load.requests", true, null, r -> r.load().requests()),
        new Fact("A", "load.duration_s", true, null, r -> r.load().durationS()),
        new Fact("A", "load.max_in_flight", false, null, r -> r.load().maxInFlight()),
        new Fact("A", "load.schedule_hash", false, null, r -> r.load().scheduleHash()),
        new Fact("M", "model.name", true, null, r -> r.model().name()),
        new Fact("M", "model.revision", true, null, r -> r.model().revision()),
        new Fact("M", "model.tokenizer", true, TOKENS, r -> r.model().tokenizer()),
        new Fact("M", "model.context_limit", true, null, r -> r.model().contextLimit()),
        new Fact("M", "model.decoding", true, null, r -> r.model().decoding()),
        new Fact("R", "runtime.declared", true, null, r -> r.runtime().declared()),
        new Fact("R", "runtime.server_headers", false, null, r -> r.runtime().serverHeaders()),
        new Fact("S", "load.warmup_requests", true, WARMUP, r -> r.load().warmupRequests()),
        new Fact("S", "load.warmup_duration_s", true, WARMUP, r -> r.load().warmupDurationS()),
        new Fact("S", "load.cache_policy", true, null, r -> r.load().cachePolicy()),
        new Fact("H", "hardware.server_declared", true, null, r -> r.hardware().serverDeclared()),
        new Fact("H", "hardware.client.cpu_model", true, null, r -> r.hardware().client().path("cpu_model")),
        new Fact("H", "hardware.client.logical_cpus", true, null, r -> r.hardware().client().path("logical_cpus")),
        new Fact("N", "runtime.endpoint", false, null, r -> r.runtime().endpoint()),
        new Fact("N", "measurement.network_path", true, null, r -> r.measurement().networkPath()),
        new Fact("N", "measurement.tls", true, null, r -> r.measurement().tls()),
        new Fact("N", "measurement.boundary", true, TIMING, r -> r.measurement().boundary()),
        new Fact("E", "measurement.first_token_rule", true, TIMING, r -> r.measurement().firstTokenRule()),
        new Fact("E", "measurement.token_counts", true, TOKENS, r -> r.measurement().tokenCounts()),
        new Fact("E", "tokenclock.formulas_version", true, FORMULAS, r -> r.tokenclock().formulasVersion()),
        new Fact("E", "measurement.histograms", true, PERCENTILES, r -> r.measurement().histograms()),
        new Fact("E", "load.request_timeout_s", true, FAILURES, r -> r.load().requestTimeoutS()),
        new Fact("E", "load.connect_timeout_s", true, FAILURES, r -> r.load().connectTimeoutS()),
        new Fact("E", "load.first_byte_timeout_s", true, FAILURES, r -> r.load().firstByteTimeoutS()),
        new Fact("E", "load.idle_timeout_s", true, FAILURES, r -> r.load().idleTimeoutS()),
        new Fact("E", "load.drain_timeout_s", true, FAILURES, r -> r.load().drainTimeoutS()),
        new Fact("E", "load.end_of_window_rule", false, FAILURES, r -> r.load().endOfWindowRule()),
        new Fact("Q", "workload.success_criterion", true, null, r -> r.workload().successCriterion()),
        new Fact("Q", "report.goodput.slo", true, null, r -> r.report().goodput().slo()),
        new Fact("Q", "contract.declared.quality", true, null, r -> r.contract().declared().path("quality")));

    /** The facts that every request body carries (the API, the model, its decoding): the hash changes with them. */
    static final List<Fact> BODY = ALL.stream().filter(f -> f.key().equals("runtime.api") ||
        f.key().equals("model.name") || f.key().equals("model.decoding")).toList();

    private Facts()
    {
    }
}
