package io.tokenclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.transport.Stamping;
import org.junit.jupiter.api.Test;

/**
 * {@link RunOption}'s table is the one declaration of an option: these tests hold the group records of
 * {@link RunOptions} to it (the builder fills them by component name), and the builder's copy and names to it.
 */
final class RunOptionTableTest
{
    private static final Map<Class<?>, Class<?>> BOXED = Map.of(int.class, Integer.class, long.class, Long.class,
        double.class, Double.class, boolean.class, Boolean.class);

    @Test
    void shouldGiveEveryComponentOfEveryGroupExactlyOneOptionOfItsType()
    {
        for (final Class<? extends Record> group : RunOptionsBuilder.groups())
        {
            for (final RecordComponent c : group.getRecordComponents())
            {
                final List<RunOption<?>> options = RunOption.all().stream()
                    .filter(o -> o.group() == group && o.component().equals(c.getName())).toList();
                assertEquals(1, options.size(), group.getSimpleName() + "." + c.getName());
                final Class<?> type = BOXED.getOrDefault(c.getType(), c.getType());
                assertEquals(type, options.get(0).type(), group.getSimpleName() + "." + c.getName());
                if (c.getType().isPrimitive())
                {
                    assertNotNull(options.get(0).defaultValue(), c.getName() + " is primitive: it needs a default");
                }
            }
        }
    }

    @Test
    void shouldBindEveryGroupedOptionToAComponentOfItsGroup()
    {
        for (final RunOption<?> o : RunOption.all())
        {
            if (o.group() != null)
            {
                assertTrue(List.of(o.group().getRecordComponents()).stream()
                    .anyMatch(c -> c.getName().equals(o.component())), o.field() + " in " + o.group().getSimpleName());
            }
        }
    }

    @Test
    void shouldNameEveryOptionByItsOwnField()
    {
        final Set<String> fields = new HashSet<>();
        for (final RunOption<?> o : RunOption.all())
        {
            assertTrue(fields.add(o.field()), "field given twice: " + o.field());
            assertTrue(o.doc() != null && !o.doc().isBlank(), o.field() + " has no doc line");
            assertTrue(o.flag() == null || o.flag().startsWith("--"), o.field() + ": " + o.flag());
        }
    }

    @Test
    void shouldCarryEveryValueThroughToBuilder()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:9/v1").rate(5.0).maxConcurrency(7)
            .arrival(ArrivalProcess.Kind.GAMMA).burstiness(0.5).header("X-A", "1")
            .seed(7).maxTokens(9).ignoreEos(true).stamping(Stamping.USER).busyPoll(true).outputDir(Path.of("d"))
            .warmupRequests(3).repetitions(2).set(RunOption.SAVE_TEXT, true).build();
        final RunOptions copy = o.toBuilder().build();
        assertEquals(o.target(), copy.target());
        assertEquals(o.model(), copy.model());
        assertEquals(o.workload(), copy.workload());
        assertEquals(o.load(), copy.load());
        assertEquals(o.state(), copy.state());
        assertEquals(o.measurement(), copy.measurement());
        assertEquals(o.output(), copy.output());
        assertEquals(o.quality(), copy.quality());
        assertTrue(copy.output().saveText() && copy.measurement().busyPoll());
        assertEquals(Stamping.USER, copy.measurement().stamping(), "not the default, so carried");
        assertEquals(Map.of("X-A", "1"), copy.target().headers());
    }

    @Test
    void shouldStartEveryBuilderAtTheTablesDefaults()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:9/v1").concurrency(1).build();
        assertEquals(RunOption.MAX_TOKENS.defaultValue(), o.model().maxTokens());
        assertEquals(RunOption.TIMEOUT_S.defaultValue(), o.target().timeoutS());
        assertEquals(RunOption.DRAIN_TIMEOUT_S.defaultValue(), o.load().drainTimeoutS());
        assertEquals(RunOption.SEED.defaultValue(), o.workload().seed());
        assertEquals(RunOption.API_KEY_ENV.defaultValue(), o.target().apiKeyEnv());
        assertEquals(Stamping.KERNEL, o.measurement().stamping(), "kernel stamps unless the run says user");
    }

    @Test
    void shouldNameAnOptionByTheKeyWhenTheContractGaveItAndByTheFlagOtherwise()
    {
        final RunOptionsBuilder b = RunOptions.builder().from(RunOptionsBuilder.Source.CONTRACT).maxTokens(5)
            .from(RunOptionsBuilder.Source.FLAG).seed(3);
        assertEquals("model.decoding.max_tokens", b.name(RunOption.MAX_TOKENS));
        assertEquals("--seed", b.name(RunOption.SEED));
        assertEquals("--busy-poll", b.name(RunOption.BUSY_POLL));
        assertEquals("workload.segments", b.name(RunOption.SEGMENTS));
        assertEquals("repetitionIndex", b.name(RunOption.REPETITION_INDEX));
    }

    @Test
    void shouldSpellDefaultsAsAFlagArgument()
    {
        assertEquals("600", RunOption.TIMEOUT_S.defaultText());
        assertEquals("0.1", RunOption.HICCUP_WARN_FRACTION.defaultText());
        assertEquals("chat", RunOption.API.defaultText());
        assertEquals("poisson", RunOption.ARRIVAL.defaultText());
        assertEquals(null, RunOption.INSECURE.defaultText());
        assertEquals(null, RunOption.HEADERS.defaultText());
    }
}
