package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import picocli.CommandLine;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import org.junit.jupiter.api.Test;

/** {@code run}'s flags take their defaults from {@link RunOption}'s table, in the options and in {@code --help}. */
final class RunDefaultsTest
{
    private static RunOptions parsed(final String... args)
    {
        final RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.toOptions();
    }

    @Test
    void shouldApplyTheTablesDefaultsToTheFlagsNotTyped()
    {
        final RunOptions o = parsed("--url", "http://127.0.0.1:9/v1", "--concurrency", "1");
        assertEquals(RunOption.MAX_TOKENS.defaultValue(), o.model().maxTokens());
        assertEquals(RunOption.TIMEOUT_S.defaultValue(), o.target().timeoutS());
        assertEquals(RunOption.CONNECT_TIMEOUT_S.defaultValue(), o.target().connectTimeoutS());
        assertEquals(RunOption.DRAIN_TIMEOUT_S.defaultValue(), o.load().drainTimeoutS());
        assertEquals(RunOption.SEED.defaultValue(), o.workload().seed());
        assertEquals(RunOption.HICCUP_WARN_FRACTION.defaultValue(), o.measurement().hiccupWarnFraction());
        assertEquals(RunOption.MAX_OUTPUT_BYTES.defaultValue(), o.target().maxOutputBytes());
        assertEquals(RunOption.API.defaultValue(), o.target().api());
    }

    @Test
    void shouldTakeATypedFlagOverTheTablesDefault()
    {
        final RunOptions o = parsed("--url", "http://127.0.0.1:9/v1", "--concurrency", "1", "--max-tokens", "7",
            "--timeout", "3", "--seed", "5");
        assertEquals(7, o.model().maxTokens());
        assertEquals(3.0, o.target().timeoutS());
        assertEquals(5L, o.workload().seed());
    }

    @Test
    void shouldKeepTheSelfWarmUpOffWhenTheSystemPropertySaysSoAndNoFlagIsTyped()
    {
        final String before = System.getProperty("tokenclock.selfWarmup");
        try
        {
            System.setProperty("tokenclock.selfWarmup", "false");
            assertFalse(parsed("--url", "http://127.0.0.1:9/v1", "--concurrency", "1").state().selfWarmup());
            System.clearProperty("tokenclock.selfWarmup");
            assertTrue(parsed("--url", "http://127.0.0.1:9/v1", "--concurrency", "1").state().selfWarmup());
            assertFalse(parsed("--url", "http://127.0.0.1:9/v1", "--concurrency", "1", "--no-self-warmup").state()
                .selfWarmup());
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty("tokenclock.selfWarmup");
            }
            else
            {
                System.setProperty("tokenclock.selfWarmup", before);
            }
        }
    }

    @Test
    void shouldShowTheTablesDefaultsInRunsHelp()
    {
        final String help = new CommandLine(new RunCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF)
            .replaceAll("\\s+", " ");
        assertTrue(help.contains("--seed=N Seed of prompts, lengths and arrivals (default: 42)"), help);
        assertTrue(help.contains("--endpoint=chat|completions|responses|messages|embeddings|rerank The API: " +
            "chat, completions, responses (OpenAI Responses), messages (Anthropic Messages), embeddings or rerank " +
            "(the last two answer whole: no TTFT, TPOT or ITL) (default: chat)"), help);
        assertTrue(help.contains("--arrival=constant|poisson|gamma The open loop's arrival process (default: " +
            "poisson)"), help);
        assertTrue(help.contains("Environment variable holding the API key (ANTHROPIC_API_KEY, in x-api-key, for " +
            "the Messages API) (default: OPENAI_API_KEY)"), help);
    }
}
