package io.tokenclock.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

final class ChildEnvironmentTest
{
    @Test
    void shouldLeaveAChildTheBasicVariablesAndThoseLetThroughByName()
    {
        final Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin", "HOME", "/home/u",
            "OPENAI_API_KEY", "sk-1", "TC_JUDGE_KEY", "sk-2", "TOOL_DB", "/var/db", "JAVA_HOME", "/opt/jdk"));
        ChildEnvironment.restrict(env, List.of("TOOL_DB", "NOT_SET"));
        assertEquals(Map.of("PATH", "/usr/bin", "HOME", "/home/u", "TOOL_DB", "/var/db"), env);
    }

    @Test
    void shouldRefuseAPassEnvEntryThatIsNoName()
    {
        assertEquals("workload.agent.tool_pass_env names variables: NAME, without = or a value",
            assertThrows(IllegalArgumentException.class, () -> ChildEnvironment.passEnv(
                "workload.agent.tool_pass_env", List.of("OK", "KEY=v"))).getMessage());
        assertEquals(List.of("A"), ChildEnvironment.passEnv("x", List.of("A")));
    }
}
