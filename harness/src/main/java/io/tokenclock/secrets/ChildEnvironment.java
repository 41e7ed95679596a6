package io.tokenclock.secrets;

import java.util.List;
import java.util.Map;

/**
 * The environment of a program a run starts (a quality check's {@code command}, an agent's {@code tool_command}):
 * not tokenclock's. tokenclock's holds the run's keys ({@code OPENAI_API_KEY}, the variable named by
 * {@code api_key_env}, the judge's), and such a program is one the contract names, which may log its environment or
 * send it anywhere. It gets only {@link #BASIC} (what a program needs to find its tools and speak the locale) and the
 * variables the contract lets through by name ({@code pass_env}), each only if set. One rule for every child, so
 * that a new kind of child cannot start with the keys.
 * <p>
 * Worked example: with {@code PATH}, {@code OPENAI_API_KEY} and {@code TOOL_DB} set and {@code pass_env: [TOOL_DB]},
 * the child sees {@code PATH} and {@code TOOL_DB}, never the key.
 */
public final class ChildEnvironment
{
    /** The variables a child always gets (when set): none of them holds a key. */
    public static final List<String> BASIC = List.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL",
        "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT", "TEMP", "TMP");

    private ChildEnvironment()
    {
    }

    /**
     * Checks a contract's {@code pass_env}: names only.
     *
     * @param what the contract key that gave it, for the message.
     * @return {@code passEnv}, copied.
     */
    public static List<String> passEnv(final String what, final List<String> passEnv)
    {
        if (passEnv.stream().anyMatch(n -> n == null || n.isBlank() || n.contains("=")))
        {
            throw new IllegalArgumentException(what + " names variables: NAME, without = or a value");
        }
        return List.copyOf(passEnv);
    }

    /** Leaves in {@code env} (a copy of tokenclock's, as a {@code ProcessBuilder} holds it) only what may pass. */
    public static void restrict(final Map<String, String> env, final List<String> passEnv)
    {
        env.keySet().removeIf(name -> !BASIC.contains(name) && !passEnv.contains(name));
    }
}
