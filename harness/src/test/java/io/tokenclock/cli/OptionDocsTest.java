package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

import io.tokenclock.config.RunOption;
import io.tokenclock.contract.ContractSchema;
import io.tokenclock.contract.Schema;
import org.junit.jupiter.api.Test;

/**
 * docs/CLI.md and docs/CONTRACT.md against {@link RunOption}'s table, {@code run}'s flags and the contract schema: a
 * doc that misses an option, or names a flag or key that does not exist, fails here. CLI.md's table of every option
 * is the table itself, rendered; a changed option makes this test print the rows to paste.
 */
final class OptionDocsTest
{
    private static final Path CLI_MD = Path.of("..", "docs", "CLI.md");
    private static final Path CONTRACT_MD = Path.of("..", "docs", "CONTRACT.md");
    private static final String BEGIN = "<!-- options:begin (OptionDocsTest renders this table from " +
        "config.RunOption) -->";
    private static final String END = "<!-- options:end -->";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    /** Values and outside fields CONTRACT.md's keys column names that are no key and no word of the schema. */
    private static final Set<String> NOT_KEYS = Set.of("cl100k_base", "o200k_base", "hash_ids", "response_format");

    /**
     * A flag with code of its own (a hand-written {@code @Option}: a structure's syntax, a {@code --no-} switch) has a
     * row in the run table saying how to write it; a flag the table makes alone is documented by its row of the
     * option table below it, rendered from the entry.
     */
    @Test
    void shouldListEveryHandWrittenFlagOfTheTableInCliMdsRunTable() throws IOException
    {
        final Set<String> documented = runTableFlags();
        for (final RunOption<?> o : RunOption.all())
        {
            if (o.flag() != null && !TableFlags.generated(o))
            {
                assertTrue(documented.contains(o.flag()), o.flag() + " (" + o.field() + ") is missing from the " +
                    "run table of docs/CLI.md");
            }
        }
    }

    @Test
    void shouldNameOnlyFlagsThatRunHasInCliMdsRunTable() throws IOException
    {
        final Set<String> flags = new CommandLine(new RunCommand()).getCommandSpec().optionsMap().keySet();
        for (final String flag : runTableFlags())
        {
            assertTrue(flags.contains(flag), "docs/CLI.md's run table names " + flag + ", which run does not have");
        }
    }

    @Test
    void shouldGiveEveryFlagOfTheTableToRun()
    {
        final Map<String, CommandLine.Model.OptionSpec> flags = new CommandLine(new RunCommand()).getCommandSpec()
            .optionsMap();
        for (final RunOption<?> o : RunOption.all())
        {
            if (o.flag() != null)
            {
                assertNotNull(flags.get(o.flag()), o.field() + "'s flag " + o.flag() + " is no option of run");
            }
        }
    }

    @Test
    void shouldHoldCliMdsOptionTableToTheTable() throws IOException
    {
        final String doc = Files.readString(CLI_MD);
        final int begin = doc.indexOf(BEGIN);
        final int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/CLI.md has no " + BEGIN + " ... " + END + " block");
        final String expected = render();
        assertEquals(expected, doc.substring(begin + BEGIN.length(), end).strip(),
            "docs/CLI.md's option table differs from config.RunOption's; paste:\n" + expected + "\n");
    }

    @Test
    void shouldNameOnlyContractKeysTheSchemaHasInTheTable()
    {
        for (final RunOption<?> o : RunOption.all())
        {
            if (o.key() != null)
            {
                Schema at = ContractSchema.ROOT;
                for (final String part : o.key().split("\\."))
                {
                    final Schema child = at.keys().get(part);
                    assertNotNull(child, o.field() + "'s contract key " + o.key() + " is not in ContractSchema");
                    at = child;
                }
            }
        }
    }

    /**
     * A key of a shape of its own (a distribution, a list, a map) is explained in its section of CONTRACT.md; a key
     * the table makes a leaf of is documented by its option's row of CLI.md's option table (key, default, range).
     */
    @Test
    void shouldDocumentEveryHandWrittenContractKeyOfTheTableInItsSectionOfContractMd() throws IOException
    {
        final Map<String, String> rows = contractRows();
        for (final RunOption<?> o : RunOption.all())
        {
            if (o.key() != null && ContractSchema.leaf(o) == null)
            {
                final String[] parts = o.key().split("\\.");
                final String row = rows.get(parts[0]);
                assertNotNull(row, "docs/CONTRACT.md has no row for section " + parts[0] + " (" + o.key() + ")");
                assertTrue(row.contains("`" + parts[parts.length - 1] + "`"), o.key() + " (" + o.field() +
                    ") is missing from its row of docs/CONTRACT.md");
            }
        }
    }

    @Test
    void shouldNameOnlyKeysAndWordsTheSchemaHasInContractMd() throws IOException
    {
        final Set<String> known = new HashSet<>(NOT_KEYS);
        collect(ContractSchema.ROOT, known);
        final Set<String> unknown = new TreeSet<>();
        for (final String row : contractRows().values())
        {
            final Matcher m = CODE.matcher(row);
            while (m.find())
            {
                if (m.group(1).matches("[a-z][a-z0-9]*_[a-z0-9_]*") && !known.contains(m.group(1)))
                {
                    unknown.add(m.group(1));
                }
            }
        }
        assertEquals(Set.of(), unknown, "docs/CONTRACT.md names keys that ContractSchema does not have");
    }

    /** @return the table of every option as docs/CLI.md shows it, one row per option in the table's order. */
    static String render()
    {
        final StringBuilder out = new StringBuilder("| option | flag | contract key | default | unit | range | " +
            "meaning |\n|---|---|---|---|---|---|---|\n");
        for (final RunOption<?> o : RunOption.all())
        {
            final Object value = o.defaultValue();
            final String shown = o.defaultText() != null ? o.defaultText() :
                value instanceof Boolean b ? String.valueOf(b) : "";
            out.append("| `").append(o.field()).append("` | ").append(code(o.flag())).append(" | ")
                .append(code(o.key())).append(" | ").append(code(shown.isEmpty() ? null : shown)).append(" | ")
                .append(o.unit() == null ? "" : o.unit()).append(" | ").append(range(o)).append(" | ")
                .append(o.doc().replace("|", "\\|"))
                .append(" |\n");
        }
        return out.toString().strip();
    }

    /** @return the entry's range ({@code in [0, 1024]}) or words ({@code `chat`, `completions`}), or nothing. */
    private static String range(final RunOption<?> o)
    {
        if (o.range() != null)
        {
            return o.range().shown();
        }
        return String.join(", ", o.words().stream().map(OptionDocsTest::code).toList());
    }

    private static String code(final String text)
    {
        return text == null ? "" : "`" + text + "`";
    }

    /** @return every flag in the first column of the {@code run} section's first table. */
    private static Set<String> runTableFlags() throws IOException
    {
        final String doc = Files.readString(CLI_MD);
        final String section = doc.substring(doc.indexOf("## `run`"), doc.indexOf("\n## ", doc.indexOf("## `run`")));
        final Set<String> flags = new TreeSet<>();
        boolean inTable = false;
        for (final String line : section.split("\n"))
        {
            if (line.startsWith("| flag |"))
            {
                inTable = true;
            }
            else if (inTable && !line.startsWith("|"))
            {
                break;
            }
            else if (inTable)
            {
                final Matcher m = CODE.matcher(line.split("(?<!\\\\)\\|")[1]);
                while (m.find())
                {
                    for (final String word : m.group(1).split("[ ,=]+"))
                    {
                        if (word.startsWith("-"))
                        {
                            flags.add(word);
                        }
                    }
                }
            }
        }
        return flags;
    }

    /** @return CONTRACT.md's "Sections and keys" rows by each section named in their first column. */
    private static Map<String, String> contractRows() throws IOException
    {
        final String doc = Files.readString(CONTRACT_MD);
        final int at = doc.indexOf("## Sections and keys");
        final String section = doc.substring(at, doc.indexOf("\n## ", at + 1));
        final Map<String, String> rows = new LinkedHashMap<>();
        for (final String line : section.split("\n"))
        {
            if (line.startsWith("| `"))
            {
                final Matcher m = CODE.matcher(line.split("\\|")[1]);
                while (m.find())
                {
                    rows.put(m.group(1).toLowerCase(Locale.ROOT), line);
                }
            }
        }
        return rows;
    }

    private static void collect(final Schema schema, final Set<String> into)
    {
        into.addAll(schema.words());
        for (final Map.Entry<String, Schema> e : schema.keys().entrySet())
        {
            into.add(e.getKey());
            collect(e.getValue(), into);
        }
    }
}
