package io.tokenclock.deploy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

import io.tokenclock.secrets.Redaction;

/**
 * The credentials a rendered job carries through its environment, never in its text: the run's arguments that hold
 * one (a header's value, a URL with user information or a query), each as a whole argument in a variable
 * {@code TOKENCLOCK_ARG_<index>} that the script expands in its place, and the API keys' variables with their values
 * (the one {@code --api-key-env} or {@code target.api_key_env} names, the judge's). Slurm's job sources them from a
 * file only its owner reads, Kubernetes' pods take them from a Secret; both are written by {@code secrets.SecretFile},
 * never printed.
 * <p>
 * An argument is recognised by what it is, as {@link Redaction} does: the value of {@code -H}/{@code --header} in any
 * spelling ({@code -H V}, {@code -HV}, {@code -H=V}, {@code --header V}, {@code --header=V}), and any argument with
 * {@code ://} that {@link Redaction#url} would change (so {@code --url}, {@code --server-metrics}, a {@code --power}
 * spec and {@code --url=...} alike). A whole argument moves, so that the script needs no parsing of it.
 * <p>
 * Worked example: {@code --url http://bob:pw@vllm:8000/v1 -H "X-Api-Key: k1" --rate 4} is rendered as
 * {@code --url "$TOKENCLOCK_ARG_1" -H "$TOKENCLOCK_ARG_3" --rate 4}, with {@code TOKENCLOCK_ARG_1} and
 * {@code TOKENCLOCK_ARG_3} in the environment.
 *
 * @param args      the indexes of the run's arguments carried in the environment.
 * @param variables the API keys' variables, by name, with their values.
 */
public record JobCredentials(SortedSet<Integer> args, Map<String, String> variables)
{
    /** Each carried argument's variable is this, then its index. */
    public static final String ARG_PREFIX = "TOKENCLOCK_ARG_";

    /** A job that carries nothing. */
    public static final JobCredentials NONE = new JobCredentials(new TreeSet<>(), Map.of());

    public JobCredentials
    {
        args = Collections.unmodifiableSortedSet(new TreeSet<>(args));
        variables.keySet().forEach(name -> RenderChecks.variable("the API key's variable", name));
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    }

    /**
     * @param runArgs   the run's arguments.
     * @param variables the API keys' variables that are set, with their values.
     * @return what of them the job must carry in its environment.
     */
    public static JobCredentials of(final List<String> runArgs, final Map<String, String> variables)
    {
        final SortedSet<Integer> carried = new TreeSet<>();
        for (int i = 0; i < runArgs.size(); i++)
        {
            final String a = runArgs.get(i);
            if (a.equals("-H") || a.equals("--header"))
            {
                if (i + 1 < runArgs.size())
                {
                    carried.add(i + 1);
                }
            }
            else if (a.startsWith("-H") || a.startsWith("--header=") ||
                (a.contains("://") && Redaction.urlHasSecrets(a)))
            {
                carried.add(i);
            }
        }
        return new JobCredentials(carried, variables);
    }

    /** @return true if the job carries nothing: no file, no Secret. */
    public boolean isEmpty()
    {
        return args.isEmpty() && variables.isEmpty();
    }

    /** @return run argument {@code i} as the script's word: quoted, or its variable expanded in double quotes. */
    public String word(final List<String> runArgs, final int i)
    {
        return args.contains(i) ? "\"$" + ARG_PREFIX + i + "\"" : Shell.quote(runArgs.get(i));
    }

    /** @return every variable the job's environment gets, in order: the carried arguments, then the keys. */
    public Map<String, String> environment(final List<String> runArgs)
    {
        final Map<String, String> env = new LinkedHashMap<>();
        args.forEach(i -> env.put(ARG_PREFIX + i, runArgs.get(i)));
        env.putAll(variables);
        return env;
    }
}
