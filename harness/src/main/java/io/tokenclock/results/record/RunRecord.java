package io.tokenclock.results.record;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code record.json} as typed values: what {@code report.RecordWriter} writes and what {@code record}, {@code report},
 * {@code compare} and the importers read back ({@link RecordJson}). Components are declared in the order they are
 * written, their JSON names are the snake_case of their Java names (docs/RESULTS.md lists every key). A section
 * whose shape is the contract's own ({@code contract.declared}, {@code runtime.declared}) or the machine's stays a
 * JSON tree. Older {@code record_format} versions read into the same types: a key they lack is null (or 0/false).
 *
 * @param tokenclock    what wrote the record: format, formulas and build versions.
 * @param runId         the run's id.
 * @param partial       whether the run was stopped before its end (the record then says why).
 * @param partialReason why it was stopped, or null.
 * @param startedAt     ISO-8601 instant the run started.
 * @param command       the command line that made it, secrets redacted.
 * @param model         M: the model as asked for and served.
 * @param runtime       R: the endpoint and the server as it described itself.
 * @param hardware      H: the client machine as read, the server's as declared.
 * @param workload      W: what was sent.
 * @param load          A and S: the load model, warm-up, timeouts and the end-of-window rule.
 * @param shard         a sharded run's part, start and clocks (docs/RESULTS.md), absent for a run of one process.
 * @param measurement   N and E: the boundary, the clock, the rules every figure follows, the client's health.
 * @param report        what the measured requests gave.
 * @param contract      the contract file and what it declared.
 * @param grade         comparison-grade or local-debugging, and what is missing.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunRecord(Header tokenclock, String runId, boolean partial, String partialReason, String startedAt,
    List<String> command, Model model, Runtime runtime, Hardware hardware, Workload workload, LoadSection load,
    @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode shard, MeasurementSection measurement, ReportSection report,
    Contract contract, Grade grade)
{
    /** The {@code record_format} this build writes, and the newest it reads. */
    public static final int FORMAT = 5;
    /** The metric formulas' version this build computes by (docs/METRICS.md), and the newest it reads. */
    public static final String FORMULAS = "tokenclock-metrics/1";
    /** The grade of a record with nothing missing. */
    public static final String COMPARISON_GRADE = "comparison-grade";

    /** What wrote the record. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Header(int recordFormat, String formulasVersion, String version)
    {
    }

    /** The {@code model} section. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Model(String name, List<String> servedModels, String revision, String tokenizer,
        String tokenizerSha256, Long contextLimit, Decoding decoding)
    {
    }

    /** How the model decoded: {@code max_tokens} is null when an output length distribution sets it per request. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Decoding(Integer maxTokens, boolean ignoreEos, Double temperature, String extraBody)
    {
    }

    /** The {@code runtime} section. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Runtime(String endpoint, String api, Map<String, String> serverHeaders, JsonNode modelsResponse,
        JsonNode declared)
    {
    }

    /**
     * The {@code hardware} section: trees, since they are the machine's inventory (whose keys grow with what a host
     * lets be read) and the contract's words; {@link #machine()} is the typed view of what readers print.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Hardware(JsonNode client, JsonNode clientGpus, JsonNode serverDeclared)
    {
        /** @return the client machine's figures that the record block prints; all null when none was read. */
        @JsonIgnore
        public Machine machine()
        {
            return client == null || !client.isObject() ? new Machine(null, null, null, null, null) :
                RecordJson.JSON.convertValue(client, Machine.class);
        }
    }

    /** The client machine as {@code hardware.client} names it: CPU, logical CPUs, memory, OS and JVM. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Machine(String cpuModel, Integer logicalCpus, Long memoryTotalBytes, String os, String jvm)
    {
    }

    /**
     * The {@code workload} section.
     *
     * @param inputsPerRequest the texts (embeddings) or documents (rerank) of each request, or null (absent) for an
     *                         API of one prompt per request.
     * @param images           the synthetic images every prompt carried, or null (absent) for none.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Workload(String prompts, JsonNode inputTokens, JsonNode outputTokens, double correlation, long seed,
        String hash, long hashRequests, long promptTokenResiduals, String successCriterion, String cancellation,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer inputsPerRequest,
        @JsonInclude(JsonInclude.Include.NON_NULL) Images images)
    {
        /** A workload of one prompt per request, without images. */
        public Workload(final String prompts, final JsonNode inputTokens, final JsonNode outputTokens,
            final double correlation, final long seed, final String hash, final long hashRequests,
            final long promptTokenResiduals, final String successCriterion, final String cancellation)
        {
            this(prompts, inputTokens, outputTokens, correlation, seed, hash, hashRequests, promptTokenResiduals,
                successCriterion, cancellation, null, null);
        }
    }

    /**
     * {@code workload.images}: the synthetic images every prompt carried.
     *
     * @param perRequest images per request.
     * @param size       {@code WxH}, pixels.
     * @param format     {@code png} or {@code jpeg}.
     * @param source     how they were made.
     * @param sent       images in the requests the workload hash covers.
     * @param bytes      their encoded bytes (before base64), all of them.
     * @param meanBytes  bytes per image, on average.
     * @param tokens     how their tokens are counted: by the server only.
     * @param sessionRule with {@code --users}: how a session's turns carry images (per turn, and resent with the
     *                    history), so that the contract says which rule made the requests; null (absent) otherwise.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Images(int perRequest, String size, String format, String source, long sent, long bytes,
        double meanBytes, String tokens, @JsonInclude(JsonInclude.Include.NON_NULL) String sessionRule)
    {
    }

    /**
     * The {@code contract} section: the file, its document as declared, and every option as the run resolved it
     * (flags over the contract over the defaults), by its contract key or else its option's name: made from
     * {@code config.RunOption}'s table by {@code report.RecordWriter#options}, so a new option is in it with no other
     * edit. Null in a record written before it existed.
     */
    public record Contract(String file, JsonNode declared, JsonNode options)
    {
    }

    /** The {@code grade} section. */
    public record Grade(String grade, List<String> missing)
    {
    }
}
