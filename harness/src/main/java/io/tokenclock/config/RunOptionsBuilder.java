package io.tokenclock.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.quality.QualityRule;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.Stamping;
import io.tokenclock.workload.SharedPrefixes;

import static io.tokenclock.config.RunOption.ACCEPT_TRUNCATED;
import static io.tokenclock.config.RunOption.HEADERS;
import static io.tokenclock.config.RunOption.JUDGE;
import static io.tokenclock.config.RunOption.POWER;
import static io.tokenclock.config.RunOption.PRICE;
import static io.tokenclock.config.RunOption.QUALITY_CHECKS;
import static io.tokenclock.config.RunOption.QUALITY_SUCCESS;
import static io.tokenclock.config.RunOption.SHARD;
import static io.tokenclock.config.RunOption.SLO;
import static io.tokenclock.config.RunOption.STAGES;

/**
 * Collects a run's options from the contract file, the command line or code, then {@link #build()}s them into
 * {@link RunOptions} through the one set of rules ({@link RunRules}). Values are kept per {@link RunOption}, each
 * starting at its default, and each remembers where it came from ({@link #from(Source)}), so that an error names the
 * flag or the contract key the user wrote.
 * <p>
 * {@link #set} takes any option; the named setters below are the same call, kept for the code and tests that read
 * better with them (a new option needs none). {@link #build()} fills the group records of {@link RunOptions} by
 * component name from the table, so that an option is declared once, in {@link RunOption}, and read once, through
 * its record component.
 * <p>
 * Not thread-safe; one builder per run.
 */
public final class RunOptionsBuilder
{
    /** Where a value came from: the error messages name it the way the user gave it. */
    public enum Source
    {
        /** A command-line flag, or code: named by its flag. */
        FLAG,
        /** The contract file: named by its key. */
        CONTRACT
    }

    /** The groups {@link #build()} fills by component name, in {@link RunOptions}' order. */
    private static final List<Class<? extends Record>> GROUPS = List.of(RunOptions.Target.class,
        RunOptions.Model.class, RunOptions.Workload.class, RunOptions.Load.class, RunOptions.State.class,
        RunOptions.Measurement.class, RunOptions.Output.class);

    private final Map<RunOption<?>, Object> values = new IdentityHashMap<>();
    private final Map<RunOption<?>, Source> given = new LinkedHashMap<>();
    private Source source = Source.FLAG;

    RunOptionsBuilder()
    {
        for (final RunOption<?> option : RunOption.all())
        {
            values.put(option, option.defaultValue());
        }
        // The test suite turns the self-warm-up off for the tests that are not about it (docs/CLI.md).
        if ("false".equals(System.getProperty("tokenclock.selfWarmup")))
        {
            values.put(RunOption.SELF_WARMUP, false);
        }
    }

    RunOptionsBuilder(final RunOptions o)
    {
        this();
        final List<Record> groups = List.of(o.target(), o.model(), o.workload(), o.load(), o.state(),
            o.measurement(), o.output());
        for (final Record group : groups)
        {
            for (final RunOption<?> option : RunOption.all())
            {
                if (option.group() == group.getClass())
                {
                    values.put(option, componentValue(group, option.component()));
                }
            }
        }
        put(SLO, o.quality().slo());
        put(ACCEPT_TRUNCATED, o.quality().acceptTruncated());
        put(QUALITY_SUCCESS, o.quality().rule().success());
        put(QUALITY_CHECKS, o.quality().rule().checks());
        put(JUDGE, o.quality().rule().judge());
        put(PRICE, o.cost().price());
        put(POWER, o.power().sources());
        put(SHARD, o.shard());
    }

    /** Values set from now on are named as the given source names them in errors. */
    public RunOptionsBuilder from(final Source from)
    {
        this.source = from;
        return this;
    }

    /** Sets {@code option} to {@code value}, given by the current source ({@link #from}). */
    public <T> RunOptionsBuilder set(final RunOption<T> option, final T value)
    {
        put(option, value);
        given.put(option, source);
        return this;
    }

    /**
     * Puts {@code option} back to its default, as if no one had given it: a flag that replaces a contract's loop takes
     * the keys of that loop alone with it, so that the rules do not judge them beside the new one.
     */
    public RunOptionsBuilder unset(final RunOption<?> option)
    {
        values.put(option, option.defaultValue());
        given.remove(option);
        return this;
    }

    /** @return the value {@code option} holds now (its default until set), before the rules. */
    @SuppressWarnings("unchecked")
    public <T> T get(final RunOption<T> option)
    {
        // an entry outside the table (a test's) is at its default
        return (T)(values.containsKey(option) ? values.get(option) : option.defaultValue());
    }

    /** Sets a value that a rule derived from others: it keeps the provenance it had. Collections are copied. */
    <T> void put(final RunOption<T> option, final T value)
    {
        final Object kept;
        if (value instanceof List<?> list)
        {
            kept = Collections.unmodifiableList(new ArrayList<>(list));
        }
        else if (value instanceof Map<?, ?> map)
        {
            kept = Collections.unmodifiableMap(new LinkedHashMap<>(map));
        }
        else
        {
            kept = value;
        }
        values.put(option, kept);
    }

    /** Adds one request header. */
    public RunOptionsBuilder header(final String name, final String value)
    {
        final Map<String, String> headers = new LinkedHashMap<>(get(HEADERS));
        headers.put(name, value);
        return set(RunOption.HEADERS, headers);
    }

    /** Adds one open-loop stage. */
    public RunOptionsBuilder stage(final RateSchedule.Stage stage)
    {
        final List<RateSchedule.Stage> stages = new ArrayList<>(get(STAGES));
        stages.add(stage);
        return set(RunOption.STAGES, stages);
    }

    /** Sets {@link RunOption#URL}. */
    public RunOptionsBuilder url(final String url)
    {
        return set(RunOption.URL, url);
    }

    /** Sets {@link RunOption#API}. */
    public RunOptionsBuilder api(final Api api)
    {
        return set(RunOption.API, api);
    }

    /** Sets {@link RunOption#API_KEY_ENV}. */
    public RunOptionsBuilder apiKeyEnv(final String apiKeyEnv)
    {
        return set(RunOption.API_KEY_ENV, apiKeyEnv);
    }

    /** Sets {@link RunOption#PREFLIGHT}. */
    public RunOptionsBuilder preflight(final boolean preflight)
    {
        return set(RunOption.PREFLIGHT, preflight);
    }

    /** Sets {@link RunOption#WAIT_READY_S}. */
    public RunOptionsBuilder waitReadyS(final double waitReadyS)
    {
        return set(RunOption.WAIT_READY_S, waitReadyS);
    }

    /** Sets {@link RunOption#INSECURE}. */
    public RunOptionsBuilder insecure(final boolean insecure)
    {
        return set(RunOption.INSECURE, insecure);
    }

    /** Sets {@link RunOption#CONNECT_TIMEOUT_S}. */
    public RunOptionsBuilder connectTimeoutS(final double connectTimeoutS)
    {
        return set(RunOption.CONNECT_TIMEOUT_S, connectTimeoutS);
    }

    /** Sets {@link RunOption#FIRST_BYTE_TIMEOUT_S}. */
    public RunOptionsBuilder firstByteTimeoutS(final double firstByteTimeoutS)
    {
        return set(RunOption.FIRST_BYTE_TIMEOUT_S, firstByteTimeoutS);
    }

    /** Sets {@link RunOption#IDLE_TIMEOUT_S}. */
    public RunOptionsBuilder idleTimeoutS(final double idleTimeoutS)
    {
        return set(RunOption.IDLE_TIMEOUT_S, idleTimeoutS);
    }

    /** Sets {@link RunOption#TIMEOUT_S}. */
    public RunOptionsBuilder timeoutS(final double timeoutS)
    {
        return set(RunOption.TIMEOUT_S, timeoutS);
    }

    /** Sets {@link RunOption#RETRIES_429}. */
    public RunOptionsBuilder retries429(final int retries429)
    {
        return set(RunOption.RETRIES_429, retries429);
    }

    /** Sets {@link RunOption#MODEL}. */
    public RunOptionsBuilder model(final String model)
    {
        return set(RunOption.MODEL, model);
    }

    /** Sets {@link RunOption#TOKENIZER}. */
    public RunOptionsBuilder tokenizer(final String tokenizer)
    {
        return set(RunOption.TOKENIZER, tokenizer);
    }

    /** Sets {@link RunOption#MAX_TOKENS}. */
    public RunOptionsBuilder maxTokens(final int maxTokens)
    {
        return set(RunOption.MAX_TOKENS, maxTokens);
    }

    /** Sets {@link RunOption#IGNORE_EOS}. */
    public RunOptionsBuilder ignoreEos(final boolean ignoreEos)
    {
        return set(RunOption.IGNORE_EOS, ignoreEos);
    }

    /** Sets {@link RunOption#TEMPERATURE}. */
    public RunOptionsBuilder temperature(final Double temperature)
    {
        return set(RunOption.TEMPERATURE, temperature);
    }

    /** Sets {@link RunOption#EXTRA_BODY}. */
    public RunOptionsBuilder extraBody(final String extraBody)
    {
        return set(RunOption.EXTRA_BODY, extraBody);
    }

    /** Sets {@link RunOption#SEED}. */
    public RunOptionsBuilder seed(final long seed)
    {
        return set(RunOption.SEED, seed);
    }

    /** Sets {@link RunOption#INPUT_TOKENS}. */
    public RunOptionsBuilder inputTokens(final int inputTokens)
    {
        return set(RunOption.INPUT_TOKENS, inputTokens);
    }

    /** Sets {@link RunOption#PROMPT}. */
    public RunOptionsBuilder prompt(final String prompt)
    {
        return set(RunOption.PROMPT, prompt);
    }

    /** Sets {@link RunOption#INPUT_LENGTHS}. */
    public RunOptionsBuilder inputLengths(final LengthSpec inputLengths)
    {
        return set(RunOption.INPUT_LENGTHS, inputLengths);
    }

    /** Sets {@link RunOption#OUTPUT_LENGTHS}. */
    public RunOptionsBuilder outputLengths(final LengthSpec outputLengths)
    {
        return set(RunOption.OUTPUT_LENGTHS, outputLengths);
    }

    /** Sets {@link RunOption#LENGTH_CORRELATION}. */
    public RunOptionsBuilder lengthCorrelation(final double lengthCorrelation)
    {
        return set(RunOption.LENGTH_CORRELATION, lengthCorrelation);
    }

    /** Sets {@link RunOption#SEGMENTS}. */
    public RunOptionsBuilder segments(final List<SegmentSpec> segments)
    {
        return set(RunOption.SEGMENTS, segments);
    }

    /** Sets {@link RunOption#DATASET}. */
    public RunOptionsBuilder dataset(final Path dataset)
    {
        return set(RunOption.DATASET, dataset);
    }

    /** Sets {@link RunOption#DATASET_FORMAT}. */
    public RunOptionsBuilder datasetFormat(final String datasetFormat)
    {
        return set(RunOption.DATASET_FORMAT, datasetFormat);
    }

    /** Sets {@link RunOption#PREFIXES}. */
    public RunOptionsBuilder prefixes(final SharedPrefixes prefixes)
    {
        return set(RunOption.PREFIXES, prefixes);
    }

    /** Sets {@link RunOption#CANCEL_RATE}. */
    public RunOptionsBuilder cancelRate(final double cancelRate)
    {
        return set(RunOption.CANCEL_RATE, cancelRate);
    }

    /** Sets {@link RunOption#CANCEL_AFTER_MS}. */
    public RunOptionsBuilder cancelAfterMs(final double cancelAfterMs)
    {
        return set(RunOption.CANCEL_AFTER_MS, cancelAfterMs);
    }

    /** Sets {@link RunOption#CANCEL_AFTER_TOKENS}. */
    public RunOptionsBuilder cancelAfterTokens(final int cancelAfterTokens)
    {
        return set(RunOption.CANCEL_AFTER_TOKENS, cancelAfterTokens);
    }

    /** Sets {@link RunOption#SESSION_TURNS}. */
    public RunOptionsBuilder sessionTurns(final LengthSpec sessionTurns)
    {
        return set(RunOption.SESSION_TURNS, sessionTurns);
    }

    /** Sets {@link RunOption#THINK_TIME_MS}. */
    public RunOptionsBuilder thinkTimeMs(final LengthSpec thinkTimeMs)
    {
        return set(RunOption.THINK_TIME_MS, thinkTimeMs);
    }

    /** Sets {@link RunOption#AGENT}. */
    public RunOptionsBuilder agent(final AgentSpec agent)
    {
        return set(RunOption.AGENT, agent);
    }

    /** Sets {@link RunOption#CONCURRENCY}. */
    public RunOptionsBuilder concurrency(final Integer concurrency)
    {
        return set(RunOption.CONCURRENCY, concurrency);
    }

    /** Sets {@link RunOption#RATE}. */
    public RunOptionsBuilder rate(final Double rate)
    {
        return set(RunOption.RATE, rate);
    }

    /** Sets {@link RunOption#ARRIVAL}. */
    public RunOptionsBuilder arrival(final ArrivalProcess.Kind arrival)
    {
        return set(RunOption.ARRIVAL, arrival);
    }

    /** Sets {@link RunOption#BURSTINESS}. */
    public RunOptionsBuilder burstiness(final double burstiness)
    {
        return set(RunOption.BURSTINESS, burstiness);
    }

    /** Sets {@link RunOption#MAX_CONCURRENCY}. */
    public RunOptionsBuilder maxConcurrency(final Integer maxConcurrency)
    {
        return set(RunOption.MAX_CONCURRENCY, maxConcurrency);
    }

    /** Sets {@link RunOption#USERS}. */
    public RunOptionsBuilder users(final Integer users)
    {
        return set(RunOption.USERS, users);
    }

    /** Sets {@link RunOption#STICKY}. */
    public RunOptionsBuilder sticky(final boolean sticky)
    {
        return set(RunOption.STICKY, sticky);
    }

    /** Sets {@link RunOption#RAMP}. */
    public RunOptionsBuilder ramp(final RateSchedule.Ramp ramp)
    {
        return set(RunOption.RAMP, ramp);
    }

    /** Sets {@link RunOption#CONCURRENCY_STAGES}. */
    public RunOptionsBuilder concurrencyStages(final ConcurrencySchedule concurrencyStages)
    {
        return set(RunOption.CONCURRENCY_STAGES, concurrencyStages);
    }

    /** Sets {@link RunOption#STAGES}. */
    public RunOptionsBuilder stages(final List<RateSchedule.Stage> stages)
    {
        return set(RunOption.STAGES, stages);
    }

    /** Sets {@link RunOption#REQUESTS}. */
    public RunOptionsBuilder requests(final Long requests)
    {
        return set(RunOption.REQUESTS, requests);
    }

    /** Sets {@link RunOption#DURATION_S}. */
    public RunOptionsBuilder durationS(final Double durationS)
    {
        return set(RunOption.DURATION_S, durationS);
    }

    /** Sets {@link RunOption#FIXED_SCHEDULE}. */
    public RunOptionsBuilder fixedSchedule(final boolean fixedSchedule)
    {
        return set(RunOption.FIXED_SCHEDULE, fixedSchedule);
    }

    /** Sets {@link RunOption#TRACE_SPEEDUP}. */
    public RunOptionsBuilder traceSpeedup(final double traceSpeedup)
    {
        return set(RunOption.TRACE_SPEEDUP, traceSpeedup);
    }

    /** Sets {@link RunOption#DRAIN_TIMEOUT_S}. */
    public RunOptionsBuilder drainTimeoutS(final double drainTimeoutS)
    {
        return set(RunOption.DRAIN_TIMEOUT_S, drainTimeoutS);
    }

    /** Sets {@link RunOption#SCENARIO}. */
    public RunOptionsBuilder scenario(final Scenario scenario)
    {
        return set(RunOption.SCENARIO, scenario);
    }

    /** Sets {@link RunOption#MIN_SAMPLES_FOR}. */
    public RunOptionsBuilder minSamplesFor(final TailQuantile minSamplesFor)
    {
        return set(RunOption.MIN_SAMPLES_FOR, minSamplesFor);
    }

    /** Sets {@link RunOption#WARMUP_REQUESTS}. */
    public RunOptionsBuilder warmupRequests(final long warmupRequests)
    {
        return set(RunOption.WARMUP_REQUESTS, warmupRequests);
    }

    /** Sets {@link RunOption#COLD_START}. */
    public RunOptionsBuilder coldStart(final boolean coldStart)
    {
        return set(RunOption.COLD_START, coldStart);
    }

    /** Sets {@link RunOption#CACHE_POLICY}. */
    public RunOptionsBuilder cachePolicy(final String cachePolicy)
    {
        return set(RunOption.CACHE_POLICY, cachePolicy);
    }

    /** Sets {@link RunOption#FLUSH_URL}. */
    public RunOptionsBuilder flushUrl(final String flushUrl)
    {
        return set(RunOption.FLUSH_URL, flushUrl);
    }

    /** Sets {@link RunOption#FLUSH_METHOD}. */
    public RunOptionsBuilder flushMethod(final String flushMethod)
    {
        return set(RunOption.FLUSH_METHOD, flushMethod);
    }

    /** Sets {@link RunOption#REPETITIONS}. */
    public RunOptionsBuilder repetitions(final int repetitions)
    {
        return set(RunOption.REPETITIONS, repetitions);
    }

    /** Sets {@link RunOption#REPETITION_INDEX}. */
    public RunOptionsBuilder repetitionIndex(final int repetitionIndex)
    {
        return set(RunOption.REPETITION_INDEX, repetitionIndex);
    }

    /** Sets {@link RunOption#SELF_WARMUP}. */
    public RunOptionsBuilder selfWarmup(final boolean selfWarmup)
    {
        return set(RunOption.SELF_WARMUP, selfWarmup);
    }

    /** Sets {@link RunOption#PRECONNECT}. */
    public RunOptionsBuilder preconnect(final Integer preconnect)
    {
        return set(RunOption.PRECONNECT, preconnect);
    }

    /** Sets {@link RunOption#IO_THREADS}. */
    public RunOptionsBuilder ioThreads(final int ioThreads)
    {
        return set(RunOption.IO_THREADS, ioThreads);
    }

    /** Sets {@link RunOption#STAMPING}. */
    public RunOptionsBuilder stamping(final Stamping stamping)
    {
        return set(RunOption.STAMPING, stamping);
    }

    /** Sets {@link RunOption#BUSY_POLL}. */
    public RunOptionsBuilder busyPoll(final boolean busyPoll)
    {
        return set(RunOption.BUSY_POLL, busyPoll);
    }

    /** Sets {@link RunOption#PROFILE}. */
    public RunOptionsBuilder profile(final String profile)
    {
        return set(RunOption.PROFILE, profile);
    }

    /** Sets {@link RunOption#SERVER_METRICS}. */
    public RunOptionsBuilder serverMetrics(final String serverMetrics)
    {
        return set(RunOption.SERVER_METRICS, serverMetrics);
    }

    /** Sets {@link RunOption#SERVER_METRICS_INTERVAL_MS}. */
    public RunOptionsBuilder serverMetricsIntervalMs(final long serverMetricsIntervalMs)
    {
        return set(RunOption.SERVER_METRICS_INTERVAL_MS, serverMetricsIntervalMs);
    }

    /** Sets {@link RunOption#SLO}. */
    public RunOptionsBuilder slo(final Slo slo)
    {
        return set(RunOption.SLO, slo);
    }

    /** Sets {@link RunOption#QUALITY_SUCCESS}. */
    public RunOptionsBuilder qualitySuccess(final String success)
    {
        return set(RunOption.QUALITY_SUCCESS, success);
    }

    /** Sets {@link RunOption#QUALITY_CHECKS}. */
    public RunOptionsBuilder qualityChecks(final List<Check> checks)
    {
        return set(RunOption.QUALITY_CHECKS, checks);
    }

    /** Sets {@link RunOption#JUDGE}. */
    public RunOptionsBuilder judge(final JudgeSpec spec)
    {
        return set(RunOption.JUDGE, spec);
    }

    /** Sets {@link RunOption#ACCEPT_TRUNCATED}. */
    public RunOptionsBuilder acceptTruncated(final boolean acceptTruncated)
    {
        return set(RunOption.ACCEPT_TRUNCATED, acceptTruncated);
    }

    /** Sets {@link RunOption#OUTPUT_DIR}. */
    public RunOptionsBuilder outputDir(final Path outputDir)
    {
        return set(RunOption.OUTPUT_DIR, outputDir);
    }

    /** Sets {@link RunOption#RUN_ID}. */
    public RunOptionsBuilder runId(final String runId)
    {
        return set(RunOption.RUN_ID, runId);
    }

    /** Sets {@link RunOption#FORCE}. */
    public RunOptionsBuilder force(final boolean force)
    {
        return set(RunOption.FORCE, force);
    }

    /** Sets {@link RunOption#SAVE_TEXT}. */
    public RunOptionsBuilder saveText(final boolean saveText)
    {
        return set(RunOption.SAVE_TEXT, saveText);
    }

    /** Sets {@link RunOption#PROGRESS}. */
    public RunOptionsBuilder progress(final boolean progress)
    {
        return set(RunOption.PROGRESS, progress);
    }

    /** Sets {@link RunOption#COMMAND_LINE}. */
    public RunOptionsBuilder commandLine(final List<String> commandLine)
    {
        return set(RunOption.COMMAND_LINE, commandLine);
    }

    /** Sets {@link RunOption#CONTRACT}. */
    public RunOptionsBuilder contract(final ObjectNode contract)
    {
        return set(RunOption.CONTRACT, contract);
    }

    /** Sets {@link RunOption#CONTRACT_PATH}. */
    public RunOptionsBuilder contractPath(final Path contractPath)
    {
        return set(RunOption.CONTRACT_PATH, contractPath);
    }

    /** Sets {@link RunOption#CONCURRENCY_RAMP}. */
    public RunOptionsBuilder concurrencyRamp(final RateSchedule.Ramp concurrencyRamp)
    {
        return set(RunOption.CONCURRENCY_RAMP, concurrencyRamp);
    }

    /** Sets {@link RunOption#PRICE}. */
    public RunOptionsBuilder price(final PriceModel price)
    {
        return set(RunOption.PRICE, price);
    }

    /** Sets {@link RunOption#POWER}. */
    public RunOptionsBuilder power(final List<PowerSourceSpec> power)
    {
        return set(RunOption.POWER, power);
    }

    /** Sets {@link RunOption#SHARD}. */
    public RunOptionsBuilder shard(final ShardSpec part)
    {
        return set(RunOption.SHARD, part);
    }

    /**
     * @return how the user named {@code option}: its contract key when the contract gave it, its flag when a flag did;
     * an option no one gave is named the way the last source speaks (a contract checked alone names its keys).
     */
    String name(final RunOption<?> option)
    {
        return option.named(given.getOrDefault(option, source) == Source.CONTRACT);
    }

    /** @return whether {@code option} was set, by any source. */
    boolean isGiven(final RunOption<?> option)
    {
        return given.containsKey(option);
    }

    /**
     * Applies every rule ({@link RunRules}), fills the defaults that depend on other options, and builds.
     *
     * @throws IllegalArgumentException with one line naming the flag or key at fault.
     */
    public RunOptions build()
    {
        apiOfUrl();
        RunRules.check(this);
        keyEnvOfApi();
        final List<Record> groups = new ArrayList<>();
        for (final Class<? extends Record> group : GROUPS)
        {
            groups.add(group(group));
        }
        return new RunOptions((RunOptions.Target)groups.get(0), (RunOptions.Model)groups.get(1),
            (RunOptions.Workload)groups.get(2), (RunOptions.Load)groups.get(3), (RunOptions.State)groups.get(4),
            (RunOptions.Measurement)groups.get(5),
            new RunOptions.Quality(get(SLO), get(ACCEPT_TRUNCATED),
                new QualityRule(get(QUALITY_SUCCESS), get(QUALITY_CHECKS), get(JUDGE))),
            (RunOptions.Output)groups.get(6), new RunOptions.Cost(get(PRICE)), new RunOptions.Power(get(POWER)),
            get(SHARD));
    }

    /**
     * A URL that ends in an API's path ({@code .../v1/messages}) names the API: it becomes the run's, and an
     * {@code --endpoint} (or {@code target.endpoint}) naming another is a contradiction.
     */
    private void apiOfUrl()
    {
        final String url = get(RunOption.URL);
        final Api named;
        try
        {
            named = url == null || url.isBlank() ? null : Endpoint.parse(url, get(RunOption.API)).api();
        }
        catch (final IllegalArgumentException ex)
        {
            return; // the target's rule names what is wrong with the URL
        }
        if (named != null && named != get(RunOption.API))
        {
            if (isGiven(RunOption.API))
            {
                throw new IllegalArgumentException(name(RunOption.API) + " " + get(RunOption.API).word() + " and " +
                    name(RunOption.URL) + " ending in " + named.path() + " name two APIs: give one");
            }
            values.put(RunOption.API, named);
        }
    }

    /**
     * The API key's variable follows the API while it is the default: {@code OPENAI_API_KEY} means
     * {@code ANTHROPIC_API_KEY} for the Messages API. Judged on the value, not on whether it was given: the command
     * line hands every flag's default to the builder, so a default and a value typed equal to it look alike.
     */
    private void keyEnvOfApi()
    {
        if (RunOption.API_KEY_ENV.defaultValue().equals(get(RunOption.API_KEY_ENV)))
        {
            values.put(RunOption.API_KEY_ENV, get(RunOption.API).defaultKeyEnv());
        }
    }

    /** @return the group record built by its canonical constructor, each component from the option named so. */
    private <R extends Record> R group(final Class<R> type)
    {
        final RecordComponent[] components = type.getRecordComponents();
        final Class<?>[] types = new Class<?>[components.length];
        final Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++)
        {
            types[i] = components[i].getType();
            args[i] = values.get(option(type, components[i].getName()));
        }
        try
        {
            return type.getDeclaredConstructor(types).newInstance(args);
        }
        catch (final InvocationTargetException ex)
        {
            if (ex.getCause() instanceof RuntimeException rte)
            {
                throw rte;
            }
            throw new IllegalStateException(type.getSimpleName() + ": " + ex.getCause(), ex.getCause());
        }
        catch (final ReflectiveOperationException | IllegalArgumentException ex)
        {
            throw new IllegalStateException(type.getSimpleName() + " does not match RunOption's table: " + ex, ex);
        }
    }

    /** @return the option filling component {@code name} of {@code group} (RunOptionTableTest: exactly one each). */
    static RunOption<?> option(final Class<? extends Record> group, final String name)
    {
        for (final RunOption<?> option : RunOption.all())
        {
            if (option.group() == group && option.component().equals(name))
            {
                return option;
            }
        }
        throw new IllegalStateException(group.getSimpleName() + "." + name + " has no entry in RunOption's table");
    }

    /** @return the group records that {@link #build()} fills by component name. */
    static List<Class<? extends Record>> groups()
    {
        return GROUPS;
    }

    private static Object componentValue(final Record group, final String component)
    {
        for (final RecordComponent c : group.getClass().getRecordComponents())
        {
            if (c.getName().equals(component))
            {
                try
                {
                    return c.getAccessor().invoke(group);
                }
                catch (final ReflectiveOperationException ex)
                {
                    throw new IllegalStateException(group.getClass().getSimpleName() + "." + component, ex);
                }
            }
        }
        throw new IllegalStateException(group.getClass().getSimpleName() + " has no component " + component);
    }
}
