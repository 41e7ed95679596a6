package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package map of docs/ARCHITECTURE.md holds for every class of {@code harness/src/main}: each dependency, read
 * from the bytecode by ArchUnit (so a fully qualified name in code counts as much as an import), goes to the JDK, to
 * the class's own package, to a package its row allows, or to a library its row allows. The table itself must be
 * acyclic: every allowed edge points to a lower layer.
 */
final class LayeringTest
{
    private static final Path TABLE = Path.of("..", "docs", "ARCHITECTURE.md");

    private static PackageMap map;
    private static JavaClasses classes;

    @BeforeAll
    static void load() throws IOException
    {
        map = PackageMap.read(TABLE);
        // This module's main classes only, by location: fixtures classes may sit on the classpath as a directory.
        classes = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void shouldReadTheTableFromArchitectureMd()
    {
        assertTrue(map.rows().size() >= 15, "rows read from " + TABLE.toAbsolutePath() + ": " + map.rows().keySet());
        assertEquals(Set.of("clock", "framing", "metrics", "text"), map.rows().get("recording").allowed());
    }

    @Test
    void shouldPointEveryAllowedEdgeToALowerLayer()
    {
        assertEquals(List.of(), map.inconsistencies());
    }

    @Test
    void shouldHaveARowForEveryPackageOfTheHarness()
    {
        final Set<String> missing = new TreeSet<>();
        for (final JavaClass c : classes)
        {
            final String pkg = relative(c);
            if (pkg != null && !map.rows().containsKey(pkg))
            {
                missing.add(pkg);
            }
        }
        assertEquals(Set.of(), missing, "packages without a row in docs/ARCHITECTURE.md");
    }

    /**
     * Every package of the table says what it holds and what it may import in its {@code package-info.java}, by naming
     * its row rather than copying it (the row is the one place that fact lives).
     */
    @Test
    void shouldDescribeEveryPackageOfTheTableInAPackageInfoThatNamesItsRow() throws IOException
    {
        final Set<String> lacking = new TreeSet<>();
        for (final String pkg : map.rows().keySet())
        {
            final String module = pkg.startsWith("fixtures.") ? "fixtures" :
                "transport.kernel".equals(pkg) ? "kernel" : "harness";
            final Path info = Path.of("..", module, "src", "main", "java", "io", "tokenclock")
                .resolve(pkg.replace('.', '/')).resolve("package-info.java");
            final String text = Files.isRegularFile(info) ? Files.readString(info) : "";
            if (!text.contains("{@code " + pkg + "}") || !text.contains("docs/ARCHITECTURE.md"))
            {
                lacking.add(pkg);
            }
        }
        assertEquals(Set.of(), lacking, "packages whose package-info does not name their row in docs/ARCHITECTURE.md");
    }

    @Test
    void shouldDependOnlyAlongTheTable()
    {
        assertTrue(classes.size() > 100, "classes imported: " + classes.size());
        assertEquals(Set.of(), violations(classes));
    }

    @Test
    void shouldHoldTransportKernelToItsRowInTheKernelModule()
    {
        // transport.kernel is the kernel module's (the accuracy module's truth server uses it too), not in
        // target/classes: read from the classpath, main classes only, and held to the same table.
        final JavaClasses kernel = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tokenclock.transport.kernel");
        assertTrue(map.rows().containsKey("transport.kernel"), "transport.kernel has its row");
        assertTrue(kernel.size() > 5, "transport.kernel classes on the classpath: " + kernel.size());
        for (final JavaClass c : kernel)
        {
            assertFalse(classes.contain(c.getName()), c.getName() + " is in the harness's own classes again");
        }
        assertEquals(Set.of(), violations(kernel));
    }

    @Test
    void shouldRejectAnEdgeTheTableDoesNotAllow()
    {
        final PackageMap m = PackageMap.parse(List.of(
            "| `clock` | 0 | | |",
            "| `recording` | 2 | `clock` | Agrona |",
            "| `report` | 7 | `recording` | Jackson |"));
        assertNull(m.violation("recording", "io.tokenclock.clock.NanoClock"));
        assertNull(m.violation("recording", "org.agrona.concurrent.UnsafeBuffer"));
        assertNull(m.violation("recording", "java.util.List"));
        assertNotNull(m.violation("recording", "io.tokenclock.report.RecordWriter"));
        assertNotNull(m.violation("clock", "io.tokenclock.recording.SlotPool"));
        assertNotNull(m.violation("recording", "com.fasterxml.jackson.databind.JsonNode"));
        assertNotNull(m.violation("recording", "io.netty.buffer.ByteBuf"));
        assertNotNull(m.violation("recording", "com.sun.jna.Native"), "JNA is a library, not the JDK");
        assertNotNull(m.violation("runner", "java.util.List"), "a package without a row");
    }

    @Test
    void shouldRejectATableWithAnUpwardOrSidewaysEdge()
    {
        final PackageMap m = PackageMap.parse(List.of(
            "| `a` | 1 | `b` | |",
            "| `b` | 1 | `c` | |",
            "| `c` | 2 | | Guava |"));
        assertEquals(List.of(
            "a (layer 1) -> b (layer 1): an allowed edge must point to a lower layer",
            "b (layer 1) -> c (layer 2): an allowed edge must point to a lower layer",
            "c: unknown library Guava (known: " + PackageMap.LIBRARIES.keySet() + ")"), m.inconsistencies());
    }

    /** @return every dependency of {@code imported}'s classes that their package's row does not allow. */
    private static Set<String> violations(final JavaClasses imported)
    {
        final Set<String> violations = new TreeSet<>();
        for (final JavaClass c : imported)
        {
            final String pkg = relative(c);
            if (pkg == null || !map.rows().containsKey(pkg))
            {
                continue;
            }
            for (final Dependency d : c.getDirectDependenciesFromSelf())
            {
                final JavaClass target = d.getTargetClass().getBaseComponentType();
                if (target.isPrimitive())
                {
                    continue;
                }
                final String why = map.violation(pkg, target.getName());
                if (why != null)
                {
                    violations.add(why + " (" + c.getSimpleName() + " -> " + target.getSimpleName() + ")");
                }
            }
        }
        return violations;
    }

    /** @return the class's package relative to {@code io.tokenclock}, or null for the root package. */
    private static String relative(final JavaClass c)
    {
        final String pkg = c.getPackageName();
        return pkg.startsWith("io.tokenclock.") ? pkg.substring("io.tokenclock.".length()) : null;
    }
}
