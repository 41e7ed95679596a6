package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad contract is rejected with one line naming the key path; the shipped examples are valid. */
final class ContractValidationTest
{
    private static final String VALID = """
        name: t
        seed: 1
        target: {url: http://127.0.0.1:8000/v1}
        model: {name: m, context_limit: 4096, tokenizer: words}
        workload:
          input_tokens: {dist: uniform, min: 10, max: 100}
          output_tokens: {dist: fixed, value: 50}
        load: {mode: open, rate: 2, duration_s: 5}
        """;

    private static final String SESSIONS = "  sessions: {turns: {dist: fixed, value: 2}}\n";

    @TempDir
    Path dir;

    /** @return a contract with this load section, its workload section last (for a test to add to it). */
    private static String load(final String section)
    {
        return """
            target: {url: http://127.0.0.1:8000/v1}
            model: {name: m, context_limit: 4096, tokenizer: words}
            load: %s
            workload:
              input_tokens: {dist: uniform, min: 10, max: 100}
              output_tokens: {dist: fixed, value: 50}
            """.formatted(section);
    }

    private List<String> errors(final String yaml) throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, yaml);
        return ContractFile.load(file).errors();
    }

    @Test
    void shouldAcceptAValidContract() throws IOException
    {
        assertEquals(List.of(), errors(VALID));
    }

    static Stream<String[]> badContracts()
    {
        return Stream.of(
            new String[] {VALID.replace("seed: 1", "sede: 1"), "sede: unknown key"},
            new String[] {VALID.replace("rate: 2", "rate: -2"), "load.rate: must be > 0, got -2"},
            new String[] {VALID.replace("rate: 2", "rate: fast"), "load.rate: must be a number, got \"fast\""},
            new String[] {VALID.replace("max: 100", "max: 5000"),
                "workload.input_tokens: longest input 5000 + longest output 50 exceeds model.context_limit 4096"},
            new String[] {VALID.replace("min: 10, max: 100", "min: 100, max: 10"),
                "workload.input_tokens: min 100 is above max 10"},
            new String[] {VALID.replace("{dist: fixed, value: 50}",
                "{dist: mixture, components: [{weight: 0.5, dist: fixed, value: 5}, {weight: 0.4, dist: fixed, " +
                "value: 9}]}"), "workload.output_tokens.components: weights are probabilities and must sum to 1"},
            new String[] {VALID.replace("{dist: fixed, value: 50}", "{dist: zipf, s: 1}"),
                "workload.output_tokens.dist: must be one of fixed, uniform, normal, lognormal, mixture, empirical"},
            new String[] {VALID.replace("value: 50", "value: 0"), "workload.output_tokens.value: must be >= 1, got 0"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}", "{mode: closed, rate: 2}"),
                "load.concurrency: required for a closed loop"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}", "{mode: open, concurrency: 4}"),
                "load.rate: required for an open loop"},
            new String[] {VALID.replace("duration_s: 5", "duration_s: 5, arrival: poisson, burstiness: 0.5"),
                "load.burstiness applies to gamma arrivals only (load.arrival is poisson)"},
            new String[] {VALID.replace("rate: 2, duration_s: 5", "duration_s: 5, fixed_schedule: true"),
                "load.fixed_schedule replays a trace's timestamps: it needs a Mooncake trace (workload.dataset.path " +
                "with workload.dataset.format mooncake)"},
            new String[] {VALID + "state: {cache: preload}\n",
                "state.cache preload replays the shared prefixes first: declare workload.prefix"},
            new String[] {VALID.replace("target: {url: http://127.0.0.1:8000/v1}", "target: {endpoint: chat}"),
                "target.url: required"},
            new String[] {VALID + "state: {cache: flush}\n", "state.flush.url: required when state.cache is flush"},
            new String[] {VALID.replace("context_limit: 4096", "context_limit: 4096.5"),
                "model.context_limit: must be an integer, got 4096.5"},
            new String[] {VALID + "quality: {success: vibes}\n", "quality.success: must be one of none, completed"},
            new String[] {VALID.replace("{dist: fixed, value: 50}", "{dist: empirical, file: nope.txt}"),
                "workload.output_tokens.file: cannot read"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}",
                "{mode: closed, ramp: {from: 1, to: 8, duration_s: 5}}"),
                "load.ramp: a closed-loop ramp of concurrency leads into load.concurrency or load.stages"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}",
                "{mode: closed, concurrency: 2, stages: [{rate: 3, duration_s: 1}]}"),
                "load.stages: concurrency stages belong to a closed loop, rate stages to an open loop"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}",
                "{mode: open, stages: [{duration_s: 1}]}"),
                "load.stages: each stage needs rate (open loop) or concurrency (closed loop)"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}", "{mode: open, scenario: offline}"),
                "load.mode: scenario offline is a closed loop; drop load.mode or make it closed"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}", "{scenario: server, rate: 2, " +
                "min_samples_for: p100}"), "load.min_samples_for: must be a percentile in (0, 100): 100"},
            new String[] {VALID.replace("{mode: open, rate: 2, duration_s: 5}", "{scenario: server, rate: 2, " +
                "duration_s: 5}"), "load.scenario server (sized for its p99) ends the run after 368 measured requests"},
            new String[] {VALID + "workload2: {}\n", "workload2: unknown key"},
            new String[] {VALID + "cost: {currency: EUR}\n", "cost: give exactly one price model, api or self_hosted"},
            new String[] {VALID + "cost: {currency: EUR, api: {input_per_mtok: 1}}\n",
                "cost.api.output_per_mtok: required"},
            new String[] {VALID + "cost: {currency: EUR, self_hosted: {accelerator_per_hour: 2, accelerators: 1, " +
                "idle_reserve_factor: 0.5}}\n", "cost.self_hosted.idle_reserve_factor: must be >= 1, got 0.5"},
            new String[] {VALID + "power: [{source: tdp}]\n",
                "power[0].source: must be one of nvml, nvidia-smi, dcgm, rapl, meter"},
            new String[] {VALID + "power: [{source: meter}]\n", "power[0].path: required for source meter"},
            new String[] {VALID + "power: [{source: rapl, url: http://x}]\n",
                "power[0].url: does not apply to source rapl"},
            new String[] {VALID + "hardware: {tdp_w: 700}\n", "hardware.tdp_w: unknown key"},
            new String[] {"target: [1, 2\n", "not valid YAML"},
            new String[] {VALID + "seed: 2\n", "not valid YAML: Duplicate field 'seed'"},
            new String[] {"- just\n- a list\n", "must be a YAML map of sections"});
    }

    /** The load section's: its shape (a contract's own), and the run's rules it becomes (config.RunRules'). */
    static Stream<String[]> badLoads()
    {
        return Stream.of(
            new String[] {load("{mode: closed, users: 2}") + SESSIONS,
                "load.mode: load.users is user-centric load; drop load.mode or make it users"},
            new String[] {load("{users: 2, requests: 4}"), "load.users: user-centric load needs load.users and " +
                "workload.sessions (chat) or workload.agent (tool-using agents)"},
            new String[] {load("{mode: users, requests: 4}") + SESSIONS, "load.users: user-centric load needs"},
            new String[] {load("{users: 2, requests: 4}") + "  sessions: {sticky: true}\n",
                "workload.sessions.turns: required for multi-turn chat sessions"},
            new String[] {load("{rate: 2, stages: [{rate: 3, duration_s: 1}]}"),
                "load.rate: the stages set the rate; drop load.rate"},
            new String[] {load("{concurrency: 2, stages: [{concurrency: 3, duration_s: 1}]}"),
                "load.concurrency: the stages set the concurrency; drop load.concurrency"},
            new String[] {load("{stages: [{rate: 3, duration_s: 1}, {concurrency: 2, duration_s: 1}]}"),
                "load.stages: concurrency stages belong to a closed loop, rate stages to an open loop"},
            new String[] {load("{mode: open, stages: [{concurrency: 2, duration_s: 1}]}"),
                "load.stages: concurrency stages belong to a closed loop, rate stages to an open loop"},
            new String[] {load("{mode: closed, fixed_schedule: true}"),
                "load.fixed_schedule: arrivals come from the trace; drop mode closed"},
            new String[] {load("{rate: 2, duration_s: 5, end_of_window: cancel, drain_timeout_s: 3}"),
                "load.drain_timeout_s: end_of_window cancel cancels in-flight requests at once; drop it"},
            new String[] {load("{rate: 2, duration_s: 5, ramp: {to: 4, duration_s: 2, shape: exponential}}"),
                "load.ramp: an exponential ramp needs from > 0"},
            // the rules of the options the keys become, said once by config.RunRules in the keys' names
            new String[] {load("{rate: 2, concurrency: 4, duration_s: 5}"), "load.concurrency (closed loop) and " +
                "load.rate (open loop) exclude each other; cap an open loop with load.max_concurrency"},
            new String[] {load("{duration_s: 5}"),
                "set load.concurrency N (closed loop) or load.rate R requests/s (open loop)"},
            new String[] {load("{concurrency: 2, stages: [{rate: 3, duration_s: 1}]}"),
                "ramps and stages shape an open loop's rate; they do not apply to load.concurrency"},
            new String[] {load("{users: 2, rate: 2, duration_s: 5}") + SESSIONS,
                "load.users runs multi-turn sessions: it excludes load.concurrency, load.rate"},
            new String[] {load("{users: 2, duration_s: 5, ramp: {from: 1, to: 2, duration_s: 1}}") + SESSIONS,
                "load.users makes the arrivals from each user's turns: drop load.ramp and load.stages"},
            new String[] {load("{users: 2, stages: [{rate: 3, duration_s: 1}]}") + SESSIONS,
                "load.users makes the arrivals from each user's turns: drop load.ramp and load.stages"},
            new String[] {load("{fixed_schedule: true, duration_s: 5, ramp: {from: 1, to: 2, duration_s: 1}}"),
                "load.fixed_schedule takes its arrivals from the trace: drop load.ramp and load.stages"},
            new String[] {load("{scenario: single-stream, rate: 2}"),
                "load.scenario single-stream sends one request at a time: drop load.rate and load.concurrency"},
            // the open-loop keys beside another load: RunRules' rule, as for their flags
            new String[] {load("{concurrency: 2, max_concurrency: 4, requests: 4}"), "load.concurrency (a closed " +
                "loop) starts each request as another ends and holds its concurrency in flight: load.max_concurrency " +
                "applies only to an open loop at a rate (load.rate); drop it, or set load.rate R instead"},
            new String[] {load("{concurrency: 2, arrival: poisson, burstiness: 2, requests: 4}"),
                "load.arrival and load.burstiness apply only to an open loop at a rate (load.rate)"},
            new String[] {load("{stages: [{concurrency: 2, duration_s: 1}], arrival: constant}"),
                "load.stages (a closed loop) starts each request as another ends"},
            new String[] {load("{users: 2, requests: 4, max_concurrency: 2}") + SESSIONS,
                "load.users makes the arrivals from each user's turns and holds one request per user in flight: " +
                    "load.max_concurrency applies only to an open loop at a rate (load.rate); drop it"},
            new String[] {load("{rate: 2, requests: 4}") + "  cancellation: {rate: 0.5}\n",
                "workload.cancellation.rate 0.5 cancels requests: say when, with workload.cancellation.after_ms > 0 " +
                    "or workload.cancellation.after_tokens >= 1"});
    }

    @ParameterizedTest
    @MethodSource({"badContracts", "badLoads"})
    void shouldRejectABadContractWithOneLineNamingTheKey(final String yaml, final String expected) throws IOException
    {
        final List<String> errors = errors(yaml);
        assertTrue(errors.stream().anyMatch(e -> e.contains(expected)), "expected '" + expected + "' in " + errors);
        assertTrue(errors.stream().noneMatch(e -> e.contains("\n")), "one line each: " + errors);
    }

    @Test
    void shouldRefuseAnArrivalBesideATracesScheduleButLetItCapTheRequestsInFlight() throws IOException
    {
        Files.writeString(dir.resolve("trace.jsonl"),
            "{\"timestamp\": 0, \"input_length\": 16, \"output_length\": 8, \"hash_ids\": [1]}\n");
        final String trace = "target: {url: http://127.0.0.1:8000/v1}\n" +
            "workload: {dataset: {path: trace.jsonl, format: mooncake}}\nload: ";
        assertEquals(List.of("load.fixed_schedule takes its arrivals from the trace: load.arrival and " +
            "load.burstiness apply only to an open loop at a rate (load.rate); drop them (cap in-flight requests " +
            "with load.max_concurrency)"), errors(trace + "{fixed_schedule: true, arrival: gamma, burstiness: 2}\n"));
        assertEquals(List.of(), errors(trace + "{fixed_schedule: true, max_concurrency: 4}\n"));
    }

    @Test
    void shouldRedactHeaderValuesAndUrlCredentialsInTheCopyThatIsWrittenOut() throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, VALID.replace("target: {url: http://127.0.0.1:8000/v1}",
            "target: {url: 'http://u:pw@127.0.0.1:8000/v1?key=k', headers: {X-Key: s3cret}}"));
        final ContractFile contract = ContractFile.load(file);
        assertEquals(List.of(), contract.errors());
        final String shown = contract.redactedTree().toString();
        assertTrue(shown.contains("\"X-Key\":\"<redacted>\""), shown);
        assertTrue(shown.contains("http://<redacted>@127.0.0.1:8000/v1?key=<redacted>"), shown);
        assertTrue(!shown.contains("s3cret") && !shown.contains("pw@"), shown);
        assertEquals("s3cret", contract.tree().path("target").path("headers").path("X-Key").asText(),
            "the tree the run uses keeps the value");
    }

    @Test
    void shouldSayWhenTheFileIsMissing()
    {
        assertEquals(List.of("no such file"), ContractFile.load(dir.resolve("absent.yaml")).errors());
    }

    static Stream<Path> examples() throws IOException
    {
        return Files.list(Path.of("../examples")).filter(p -> p.toString().endsWith(".yaml")).sorted();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void shouldAcceptEveryShippedExample(final Path example)
    {
        assertEquals(List.of(), ContractFile.load(example).errors(), example.toString());
    }
}
