package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness builds its JSON mapper in one place ({@code json.Json}): a class that makes a mapper of its own, from
 * the bytecode of {@code harness/src/main}, fails this test unless it is one of the documented exceptions (a
 * configuration of its own, or another format).
 */
final class SharedMapperTest
{
    /** The classes that may build a mapper, each for a reason its Javadoc gives. */
    private static final Set<String> ALLOWED = Set.of(
        "io.tokenclock.json.Json",
        "io.tokenclock.results.record.RecordJson",
        "io.tokenclock.peers.PeerFile",
        "io.tokenclock.contract.ContractFile",
        "io.tokenclock.deploy.K8sManifests");

    private static JavaClasses classes;

    @BeforeAll
    static void load()
    {
        classes = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void shouldBuildAJsonMapperOnlyInJsonAndTheDocumentedExceptions()
    {
        final Set<String> builders = new TreeSet<>();
        for (final JavaClass c : classes)
        {
            c.getCodeUnitCallsFromSelf().stream().filter(SharedMapperTest::buildsAMapper)
                .forEach(a -> builders.add(outermost(c).getName()));
        }
        assertTrue(builders.contains("io.tokenclock.json.Json"), "the check sees the one mapper: " + builders);
        builders.removeAll(ALLOWED);
        assertEquals(Set.of(), builders, "classes that build an ObjectMapper of their own instead of json.Json's");
    }

    /** A constructor call of ObjectMapper or JsonMapper, or JsonMapper.builder(). */
    private static boolean buildsAMapper(final JavaCall<?> access)
    {
        final String owner = access.getTargetOwner().getName();
        final String name = access.getName();
        return ("com.fasterxml.jackson.databind.ObjectMapper".equals(owner) ||
            "com.fasterxml.jackson.databind.json.JsonMapper".equals(owner)) &&
            ("<init>".equals(name) || "builder".equals(name));
    }

    private static JavaClass outermost(final JavaClass c)
    {
        JavaClass k = c;
        while (k.getEnclosingClass().isPresent())
        {
            k = k.getEnclosingClass().get();
        }
        return k;
    }
}
