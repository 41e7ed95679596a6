package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import io.tokenclock.config.RunOptions;
import io.tokenclock.contract.ContractFile;
import io.tokenclock.json.Json;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.OpenLoopSchedule;
import io.tokenclock.runner.RunShape;
import io.tokenclock.runner.Workloads;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.text.UntrustedText;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.util.WholeFile;
import io.tokenclock.workload.Workload;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.Tokenizers;

/**
 * {@code tokenclock replay DIR}: proves that a recorded run can be reconstructed. It rebuilds the run's options from
 * the recorded command and contract, regenerates offline the same number of requests the run sent and checks their
 * SHA-256 against {@code workload.hash} (and, in open loop, the schedule against {@code load.schedule_hash}); then,
 * unless {@code --check-only}, re-runs the contract into a new results directory.
 * Exit 0 when the hashes match, 1 when they do not.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Check that a recorded run's workload and schedule regenerate byte for byte, then re-run it.")
public final class ReplayCommand implements Callable<Integer>
{
    private static final ObjectMapper JSON = Json.MAPPER;

    @Parameters(index = "0", paramLabel = "DIR", description = "The recorded run's results directory.")
    Path dir;

    @Option(names = "--check-only", description = "Only check the hashes; do not re-run.")
    boolean checkOnly;

    @Option(names = "--output-dir", description = "Where the re-run writes (default: DIR/replay).")
    Path outputDir;

    @Option(names = "--url", description = "Re-run against this URL instead of the recorded one.")
    String url;

    @Option(names = {"-H", "--header"}, description = "Header NAME:VALUE for the re-run (repeatable): gives again " +
        "the value of a header the record names but, being a possible credential, never stored.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--power", paramLabel = "SOURCE[:ARGS]", description = "Re-run with these power sources " +
        "(repeatable) instead of the recorded ones: gives again a source whose URL held a credential or a query.")
    List<String> power;

    @Option(names = "--server-metrics", paramLabel = "URL|off", description = "Re-run scraping this URL instead " +
        "of the recorded one: gives again a URL that held a credential or a query.")
    String serverMetrics;

    @Option(names = "--force", description = "Replace the results of a run already in the replay's output " +
        "directory (without it, such a directory is refused).")
    boolean force;

    /** The recorded options whose values may hold a credential that is never stored; replay takes each again. */
    private static final List<String> URL_OPTIONS = List.of("--url", "--power", "--server-metrics");

    @Override
    public Integer call() throws Exception
    {
        final JsonNode record = readRecord();
        final List<String> args = recordedArgs(record);
        final RunOptions o = parse(urlForTheCheck(args));
        final String model = o.model().name() != null ? o.model().name() : record.path("model").path("name").asText();
        final long requests = record.path("workload").path("hash_requests").asLong();
        final boolean same;
        final Tokenizer tokenizer = Workloads.tokenizer(o);
        try
        {
            final Workload generator = Workloads.generator(o, Endpoint.parse(o.target().url(), o.target().api()), model,
                tokenizer);
            final LoadGenerator.RequestFiller filler = generator.offlineFiller();
            if (filler == null)
            {
                System.out.println("replay: workload  user sessions interleave by the server's timing: the hash " +
                    "covers the messages sent, and cannot be regenerated offline");
                return Main.EXIT_OK;
            }
            same = checkWorkload(record, generator, filler, requests) & checkSchedule(record, o, generator, requests);
        }
        finally
        {
            Tokenizers.closeQuietly(tokenizer);
        }
        if (!same || checkOnly)
        {
            return same ? Main.EXIT_OK : Main.EXIT_FAILED;
        }
        return rerun(record, args, model);
    }

    /** @return the run's record, refused unless a {@code tokenclock run} wrote it; says when it is partial. */
    private JsonNode readRecord() throws IOException
    {
        final Path recordFile = dir.resolve("record.json");
        if (!Files.isReadable(recordFile))
        {
            throw new IllegalArgumentException("no record.json in " + dir);
        }
        final JsonNode record = JSON.readTree(recordFile.toFile());
        if (!"run".equals(record.path("command").path(1).asText()))
        {
            throw new IllegalArgumentException("replay takes runs made with 'tokenclock run'; this record's command " +
                "is: " + record.path("command"));
        }
        if (record.path("partial").asBoolean(false))
        {
            // a file's text, which may quote a server: escaped
            System.err.println("tokenclock: replaying a partial run (" + UntrustedText.escaped(
                record.path("partial_reason").asText(), Integer.MAX_VALUE) + "): the replay runs the whole recorded " +
                "schedule");
        }
        return record;
    }

    /** Runs the recorded command again, secrets given again, into the replay directory. */
    private int rerun(final JsonNode record, final List<String> args, final String model) throws Exception
    {
        final List<String> rerun = new ArrayList<>(List.of("run"));
        List<String> kept = withoutOption(withoutOption(withoutOption(args, "--output-dir"), "--run-id"), "--model");
        kept = withoutFlag(kept, "--force");
        for (final String option : URL_OPTIONS)
        {
            if (givenAgain(option) != null)
            {
                kept = withoutOption(kept, option);
            }
        }
        rerun.addAll(withSecretsGivenAgain(kept, record));
        rerun.add("--model");
        rerun.add(model);
        rerun.add("--output-dir");
        rerun.add((outputDir != null ? outputDir : dir.resolve("replay")).toString());
        for (final String option : URL_OPTIONS)
        {
            final List<String> again = givenAgain(option);
            if (again != null)
            {
                again.forEach(v -> rerun.addAll(List.of(option, v)));
            }
        }
        if (force)
        {
            rerun.add("--force");
        }
        System.out.println("replay: re-running " + shown(rerun));
        return Main.execute(rerun.toArray(String[]::new));
    }

    /**
     * @return the command line as it may be printed: parsed, and rebuilt with every secret redacted, as
     * {@code record.json}'s {@code command} is ({@link RecordedCommand}), however the secrets were spelled.
     */
    private static String shown(final List<String> rerun)
    {
        final CommandLine cli = new CommandLine(new RunCommand());
        try
        {
            return String.join(" ", RecordedCommand.of("run", cli.parseArgs(rerun.subList(1, rerun.size())
                .toArray(String[]::new))));
        }
        catch (final CommandLine.ParameterException ex)
        {
            // nothing unparsed is shown: the run itself says, in one line, what is wrong with it
            return "tokenclock run (recorded options that no longer parse)";
        }
    }

    /** @return the values this command gives again for a recorded URL option, or null when it gives none. */
    private List<String> givenAgain(final String option)
    {
        return switch (option)
        {
            case "--url" -> url == null ? null : List.of(url);
            case "--power" -> power;
            case "--server-metrics" -> serverMetrics == null ? null : List.of(serverMetrics);
            default -> null;
        };
    }

    private static boolean checkWorkload(
        final JsonNode record, final Workload generator, final LoadGenerator.RequestFiller filler, final long requests)
    {
        for (long i = 0; i < requests; i++)
        {
            filler.build(i);
        }
        return report("workload", record.path("workload").path("hash").asText(), generator.hash(), requests);
    }

    private static boolean checkSchedule(
        final JsonNode record, final RunOptions o, final Workload generator, final long requests)
    {
        if (o.closedLoop())
        {
            System.out.println("replay: schedule  closed loop (intended starts follow completions; no hash)");
            return true;
        }
        final String regenerated = OpenLoopSchedule.hash(RunShape.plan(o, generator), requests);
        return report("schedule", record.path("load").path("schedule_hash").asText(), regenerated, requests);
    }

    private static boolean report(final String what, final String recorded, final String regenerated, final long n)
    {
        final boolean same = recorded.equals(regenerated);
        System.out.printf("replay: %-9s %s over %d requests (recorded %s, regenerated %s)%n", what,
            same ? "identical" : "DIFFERENT", n, UntrustedText.oneLine(abbreviate(recorded)),
            abbreviate(regenerated));
        return same;
    }

    private List<String> recordedArgs(final JsonNode record) throws IOException
    {
        final List<String> args = new ArrayList<>();
        final JsonNode command = record.path("command");
        for (int i = 2; i < command.size(); i++)
        {
            args.add(command.get(i).asText());
        }
        final int config = args.indexOf("--config");
        if (config >= 0 && config + 1 < args.size())
        {
            final Path original = Path.of(args.get(config + 1));
            final JsonNode declared = record.path("contract").path("declared");
            final ContractFile current = Files.isReadable(original) ?
                ContractFile.load(original) : null;
            // the record holds the redacted copy: the file is unchanged when its redacted copy is the same
            if (current == null || current.tree() == null || !current.redactedTree().equals(declared))
            {
                final Path copy = dir.resolve("replay-contract.yaml");
                WholeFile.writeString(copy, declared.toPrettyString());
                System.out.println("replay: the contract file changed or is gone; using the recorded copy " + copy);
                args.set(config + 1, copy.toString());
            }
        }
        return args;
    }

    /**
     * The recorded arguments with every redacted secret given again: a {@code --header} whose value was redacted is
     * replaced by this command's {@code -H} of the same name; a header the contract declared is given by {@code -H}
     * too when the run must use the recorded (redacted) copy of the contract. Anything still missing refuses the
     * re-run with one line, rather than sending {@code <redacted>} to the server.
     */
    private List<String> withSecretsGivenAgain(final List<String> args, final JsonNode record)
    {
        final Map<String, String> given = new LinkedHashMap<>();
        RunCommand.parseHeaders(headers).forEach((name, value) ->
            given.put(name.toLowerCase(Locale.ROOT), name + ": " + value));
        final List<String> out = new ArrayList<>();
        final List<String> missing = new ArrayList<>();
        for (int i = 0; i < args.size(); i++)
        {
            final String a = args.get(i);
            if (a.equals("--header") && i + 1 < args.size())
            {
                final String value = args.get(++i);
                final String name = value.substring(0, Math.max(0, value.indexOf(':'))).strip();
                out.add(a);
                out.add(redactedHeader(value) ? headerGivenAgain(name, given, missing) : value);
            }
            else if (URL_OPTIONS.contains(a) && i + 1 < args.size() && args.get(i + 1).contains(REDACTED))
            {
                throw new IllegalArgumentException("the recorded " + a + " held credentials or a query, which are " +
                    "never stored: give it again with replay " + a + (a.equals("--power") ? " SOURCE" : " URL"));
            }
            else
            {
                out.add(a);
            }
        }
        final int config = args.indexOf("--config");
        if (config >= 0 && args.get(config + 1).equals(dir.resolve("replay-contract.yaml").toString()))
        {
            record.path("contract").path("declared").path("target").path("headers").properties().forEach(h ->
            {
                if (REDACTED.equals(h.getValue().asText()))
                {
                    out.add("--header");
                    out.add(headerGivenAgain(h.getKey(), given, missing));
                }
            });
        }
        if (!missing.isEmpty())
        {
            throw new IllegalArgumentException("the recorded run sent header" + (missing.size() > 1 ? "s " : " ") +
                String.join(", ", missing) + ", whose value is never stored: give it again with replay -H '" +
                missing.get(0) + ": VALUE'");
        }
        return out;
    }

    private static final String REDACTED = Redaction.REDACTED;

    /**
     * The arguments to regenerate the workload offline with: this command's {@code --url}, {@code --power} and
     * {@code --server-metrics} where given, else the recorded ones with each {@code <redacted>} made a plain word, so
     * that they parse; only the URL's path (which API) matters to the check, and nothing is sent to any of them.
     */
    private List<String> urlForTheCheck(final List<String> args)
    {
        List<String> out = new ArrayList<>(args);
        for (final String option : URL_OPTIONS)
        {
            final List<String> again = givenAgain(option);
            if (again != null)
            {
                out = withoutOption(out, option);
                for (final String v : again)
                {
                    out.addAll(List.of(option, v));
                }
            }
        }
        for (int i = 0; i + 1 < out.size(); i++)
        {
            if (URL_OPTIONS.contains(out.get(i)))
            {
                out.set(i + 1, out.get(i + 1).replace(REDACTED, "redacted"));
            }
        }
        return out;
    }

    private static boolean redactedHeader(final String recorded)
    {
        return recorded.endsWith(REDACTED);
    }

    private static String headerGivenAgain(
        final String name, final Map<String, String> given, final List<String> missing)
    {
        final String again = given.get(name.toLowerCase(Locale.ROOT));
        if (again == null)
        {
            missing.add(name);
            return name + ": " + REDACTED;
        }
        return again;
    }

    private static RunOptions parse(final List<String> args)
    {
        final RunCommand run = new RunCommand();
        final CommandLine cli = new CommandLine(run);
        cli.parseArgs(args.toArray(String[]::new));
        return run.toOptions();
    }

    private static List<String> withoutOption(final List<String> args, final String name)
    {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++)
        {
            if (args.get(i).equals(name))
            {
                i++;
            }
            else if (!args.get(i).startsWith(name + "="))
            {
                out.add(args.get(i));
            }
        }
        return out;
    }

    private static List<String> withoutFlag(final List<String> args, final String flag)
    {
        final List<String> out = new ArrayList<>(args);
        out.removeIf(flag::equals);
        return out;
    }

    private static String abbreviate(final String hash)
    {
        return hash == null || hash.length() < 12 ? String.valueOf(hash) : hash.substring(0, 12);
    }
}
