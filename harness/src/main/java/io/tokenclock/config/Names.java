package io.tokenclock.config;

import java.util.Map;

/**
 * How the user names each option: its command-line flag and its contract key (either may be absent). Error messages
 * name the one the user wrote ({@link RunOptionsBuilder#from}); docs/CLI.md and docs/CONTRACT.md document both.
 */
final class Names
{
    private static final Map<String, String[]> NAMES = Map.ofEntries(
        Map.entry("url", new String[] {"--url", "target.url"}),
        Map.entry("api", new String[] {"--endpoint", "target.endpoint"}),
        Map.entry("headers", new String[] {"--header", "target.headers"}),
        Map.entry("apiKeyEnv", new String[] {"--api-key-env", "target.api_key_env"}),
        Map.entry("preflight", new String[] {"--no-preflight", null}),
        Map.entry("waitReadyS", new String[] {"--wait-ready", "target.wait_ready_s"}),
        Map.entry("caCert", new String[] {"--ca-cert", null}),
        Map.entry("insecure", new String[] {"--insecure", null}),
        Map.entry("connectTimeoutS", new String[] {"--connect-timeout", "load.connect_timeout_s"}),
        Map.entry("firstByteTimeoutS", new String[] {"--first-byte-timeout", "load.first_byte_timeout_s"}),
        Map.entry("idleTimeoutS", new String[] {"--idle-timeout", "load.idle_timeout_s"}),
        Map.entry("timeoutS", new String[] {"--timeout", "load.request_timeout_s"}),
        Map.entry("retries429", new String[] {"--retry-429", null}),
        Map.entry("maxEventBytes", new String[] {"--max-event-bytes", null}),
        Map.entry("maxOutputBytes", new String[] {"--max-output-bytes", null}),
        Map.entry("model", new String[] {"--model", "model.name"}),
        Map.entry("tokenizer", new String[] {"--tokenizer", "model.tokenizer"}),
        Map.entry("maxTokens", new String[] {"--max-tokens", "model.decoding.max_tokens"}),
        Map.entry("ignoreEos", new String[] {"--ignore-eos", "model.decoding.ignore_eos"}),
        Map.entry("temperature", new String[] {"--temperature", "model.decoding.temperature"}),
        Map.entry("extraBody", new String[] {"--extra-body", "model.decoding.extra_body"}),
        Map.entry("seed", new String[] {"--seed", "seed"}),
        Map.entry("inputTokens", new String[] {"--input-tokens", "workload.input_tokens"}),
        Map.entry("prompt", new String[] {"--prompt", "workload.prompt"}),
        Map.entry("inputLengths", new String[] {null, "workload.input_tokens"}),
        Map.entry("outputLengths", new String[] {null, "workload.output_tokens"}),
        Map.entry("lengthCorrelation", new String[] {null, "workload.correlation"}),
        Map.entry("segments", new String[] {null, "workload.segments"}),
        Map.entry("dataset", new String[] {"--dataset", "workload.dataset.path"}),
        Map.entry("datasetFormat", new String[] {"--dataset-format", "workload.dataset.format"}),
        Map.entry("blockSize", new String[] {null, "workload.dataset.block_size"}),
        Map.entry("prefixes", new String[] {null, "workload.prefix"}),
        Map.entry("cancelRate", new String[] {"--cancel-rate", "workload.cancellation.rate"}),
        Map.entry("cancelAfterMs", new String[] {"--cancel-after-ms", "workload.cancellation.after_ms"}),
        Map.entry("cancelAfterTokens", new String[] {"--cancel-after-tokens", "workload.cancellation.after_tokens"}),
        Map.entry("sessionTurns", new String[] {"--turns", "workload.sessions.turns"}),
        Map.entry("thinkTimeMs", new String[] {"--think-ms", "workload.sessions.think_time_ms"}),
        Map.entry("agent", new String[] {"--agent-steps", "workload.agent"}),
        Map.entry("concurrency", new String[] {"--concurrency", "load.concurrency"}),
        Map.entry("rate", new String[] {"--rate", "load.rate"}),
        Map.entry("arrival", new String[] {"--arrival", "load.arrival"}),
        Map.entry("burstiness", new String[] {"--burstiness", "load.burstiness"}),
        Map.entry("maxConcurrency", new String[] {"--max-concurrency", "load.max_concurrency"}),
        Map.entry("users", new String[] {"--users", "load.users"}),
        Map.entry("sticky", new String[] {"--sticky", "workload.sessions.sticky"}),
        Map.entry("ramp", new String[] {"--ramp", "load.ramp"}),
        Map.entry("concurrencyStages", new String[] {"--concurrency-stage", "load.stages"}),
        Map.entry("stages", new String[] {"--stage", "load.stages"}),
        Map.entry("requests", new String[] {"--requests", "load.requests"}),
        Map.entry("scenario", new String[] {"--scenario", "load.scenario"}),
        Map.entry("minSamplesFor", new String[] {"--min-samples-for", "load.min_samples_for"}),
        Map.entry("durationS", new String[] {"--duration", "load.duration_s"}),
        Map.entry("fixedSchedule", new String[] {"--fixed-schedule", "load.fixed_schedule"}),
        Map.entry("drainTimeoutS", new String[] {"--drain-timeout", "load.drain_timeout_s"}),
        Map.entry("graceS", new String[] {"--grace", null}),
        Map.entry("warmupRequests", new String[] {"--warmup-requests", "state.warmup.requests"}),
        Map.entry("warmupDurationS", new String[] {"--warmup-duration", "state.warmup.duration_s"}),
        Map.entry("coldStart", new String[] {"--cold-start", "state.cold_start"}),
        Map.entry("cachePolicy", new String[] {null, "state.cache"}),
        Map.entry("flushUrl", new String[] {null, "state.flush.url"}),
        Map.entry("flushMethod", new String[] {null, "state.flush.method"}),
        Map.entry("repetitions", new String[] {"--repetitions", "state.repetitions"}),
        Map.entry("repetitionIndex", new String[] {null, null}),
        Map.entry("selfWarmup", new String[] {"--no-self-warmup", null}),
        Map.entry("selfWarmupRun", new String[] {null, null}),
        Map.entry("preconnect", new String[] {"--preconnect", null}),
        Map.entry("ioThreads", new String[] {"--io-threads", "measurement.io_threads"}),
        Map.entry("busyPoll", new String[] {"--busy-poll", null}),
        Map.entry("stamping", new String[] {"--stamping", "measurement.stamping"}),
        Map.entry("profile", new String[] {"--profile", null}),
        Map.entry("profileOut", new String[] {"--profile-out", null}),
        Map.entry("hiccupWarnFraction", new String[] {"--hiccup-warn-fraction", "measurement.hiccup_warn_fraction"}),
        Map.entry("serverMetrics", new String[] {"--server-metrics", "measurement.server_metrics"}),
        Map.entry("serverMetricsIntervalMs", new String[] {"--server-metrics-interval-ms",
            "measurement.server_metrics_interval_ms"}),
        Map.entry("slo", new String[] {"--slo-ttft-ms", "quality.slo"}),
        Map.entry("acceptTruncated", new String[] {"--accept-truncated", null}),
        Map.entry("qualitySuccess", new String[] {null, "quality.success"}),
        Map.entry("qualityChecks", new String[] {"--quality-check", "quality.checks"}),
        Map.entry("judge", new String[] {null, "quality.judge"}),
        Map.entry("outputDir", new String[] {"--output-dir", "output.dir"}),
        Map.entry("runId", new String[] {"--run-id", null}),
        Map.entry("force", new String[] {"--force", null}),
        Map.entry("saveText", new String[] {"--save-text", "output.save_text"}),
        Map.entry("progress", new String[] {"--no-progress", null}),
        Map.entry("jfrEvents", new String[] {"--jfr-events", null}),
        Map.entry("htmlReport", new String[] {"--no-report", null}),
        Map.entry("commandLine", new String[] {null, null}),
        Map.entry("contract", new String[] {"--config", null}),
        Map.entry("contractPath", new String[] {"--config", null}),
        Map.entry("concurrencyRamp", new String[] {"--concurrency-ramp", "load.ramp"}),
        Map.entry("price", new String[] {"--price", "cost"}),
        Map.entry("power", new String[] {"--power", "power"}));

    private Names()
    {
    }

    /** @return {flag, contract key} of a field; the field's own name when the table has none. */
    static String[] of(final String field)
    {
        return NAMES.getOrDefault(field, new String[] {field, null});
    }
}
