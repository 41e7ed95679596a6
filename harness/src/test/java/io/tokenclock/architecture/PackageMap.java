package io.tokenclock.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The package map of docs/ARCHITECTURE.md: for each package of the harness, its layer, the packages it may depend on
 * and the libraries it may use. Parsed from the document's table, so that the rule is written once.
 *
 * @param rows package (relative to {@code io.tokenclock}) to its row, in table order.
 */
record PackageMap(Map<String, Row> rows)
{
    /** One row: a package, its layer, the packages and libraries it may use. */
    record Row(String pkg, int layer, Set<String> allowed, Set<String> libraries)
    {
    }

    /** Library names as the table writes them, to the package prefixes they stand for. */
    static final Map<String, List<String>> LIBRARIES = Map.ofEntries(
        Map.entry("HdrHistogram", List.of("org.HdrHistogram.")),
        Map.entry("Agrona", List.of("org.agrona.")),
        Map.entry("Netty", List.of("io.netty.")),
        Map.entry("Jackson", List.of("com.fasterxml.jackson.")),
        Map.entry("picocli", List.of("picocli.")),
        Map.entry("async-profiler", List.of("one.profiler.")),
        Map.entry("jtokkit", List.of("com.knuddels.jtokkit.")),
        Map.entry("DJL", List.of("ai.djl.")),
        Map.entry("java-llama.cpp", List.of("de.kherud.llama.")),
        Map.entry("json-schema-validator", List.of("com.networknt.schema.")),
        Map.entry("JNA", List.of("com.sun.jna.")));

    /** Always allowed: the JDK. */
    static final List<String> JDK = List.of("java.", "javax.", "jdk.", "com.sun.", "sun.");

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z.]+)` \\| (\\d+) \\|([^|]*)\\|([^|]*)\\|\\s*$");
    private static final Pattern NAME = Pattern.compile("`([a-z.]+)`");

    static PackageMap read(final Path markdown) throws IOException
    {
        return parse(Files.readAllLines(markdown));
    }

    static PackageMap parse(final List<String> lines)
    {
        final Map<String, Row> rows = new LinkedHashMap<>();
        for (final String line : lines)
        {
            final Matcher m = ROW.matcher(line);
            if (m.matches())
            {
                final Set<String> allowed = new TreeSet<>();
                final Matcher names = NAME.matcher(m.group(3));
                while (names.find())
                {
                    allowed.add(names.group(1));
                }
                final Set<String> libraries = new TreeSet<>();
                for (final String lib : m.group(4).split(","))
                {
                    if (!lib.isBlank())
                    {
                        libraries.add(lib.strip());
                    }
                }
                rows.put(m.group(1), new Row(m.group(1), Integer.parseInt(m.group(2)), allowed, libraries));
            }
        }
        return new PackageMap(rows);
    }

    /** @return the table's own faults: edges to unknown packages or not to a lower layer, unknown libraries. */
    List<String> inconsistencies()
    {
        final List<String> faults = new ArrayList<>();
        for (final Row row : rows.values())
        {
            for (final String to : row.allowed())
            {
                final Row target = rows.get(to);
                if (target == null)
                {
                    faults.add(row.pkg() + " -> " + to + ": no such row");
                }
                else if (target.layer() >= row.layer())
                {
                    faults.add(row.pkg() + " (layer " + row.layer() + ") -> " + to + " (layer " + target.layer() +
                        "): an allowed edge must point to a lower layer");
                }
            }
            for (final String lib : row.libraries())
            {
                if (!LIBRARIES.containsKey(lib))
                {
                    faults.add(row.pkg() + ": unknown library " + lib + " (known: " + LIBRARIES.keySet() + ")");
                }
            }
        }
        return faults;
    }

    /**
     * @param from a package relative to {@code io.tokenclock}, as the table names it.
     * @param to   a fully qualified class name the package depends on.
     * @return why the edge is not allowed, or null when it is.
     */
    String violation(final String from, final String to)
    {
        final Row row = rows.get(from);
        if (row == null)
        {
            return from + " is not in the table";
        }
        // JNA's packages sit under com.sun., which the JDK's prefixes would otherwise let through.
        final boolean library = LIBRARIES.values().stream().flatMap(List::stream).anyMatch(to::startsWith);
        if (!library && JDK.stream().anyMatch(to::startsWith))
        {
            return null;
        }
        if (to.startsWith("io.tokenclock."))
        {
            final String target = to.substring("io.tokenclock.".length(), to.lastIndexOf('.'));
            return target.equals(from) || row.allowed().contains(target) ? null :
                from + " -> " + target + " is not an allowed edge";
        }
        for (final String lib : row.libraries())
        {
            if (LIBRARIES.get(lib).stream().anyMatch(to::startsWith))
            {
                return null;
            }
        }
        return from + " uses " + to + ", a library its row does not allow";
    }
}
