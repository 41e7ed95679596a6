package io.tokenclock.compare;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.tokenclock.results.record.RunRecord;
import io.tokenclock.text.UntrustedText;

/**
 * The contracts of two results diffed fact by fact ({@link Facts}), by protocol group; the refusals among the
 * differences; and what the differences mean: the same contract, exactly one variable changed (the effect is
 * identified), or several (whole stacks are compared). Shared by {@code compare} and {@code ab}.
 *
 * @param differences every fact that differs, in the protocol's order.
 */
public record ContractDiff(List<Difference> differences)
{
    public ContractDiff
    {
        differences = List.copyOf(differences);
    }

    /**
     * One fact that differs.
     *
     * @param group    its protocol group.
     * @param key      its record key.
     * @param a        the baseline's value, or null when it does not say.
     * @param b        the other's value, or null.
     * @param declared whether it is a variable set by a user (false: it follows from others).
     * @param rule     the refusal rule it breaks, or null.
     */
    public record Difference(String group, String key, String a, String b, boolean declared, String rule)
    {
        /**
         * @return one line: {@code GROUP key: A -> B}, with the rule when it is a refusal; the values came from
         * files (a model id the server listed, a declared note), so they are escaped and cut.
         */
        public String line()
        {
            return group + " " + key + ": " + shown(a) + " -> " + shown(b) + (rule == null ? "" : " [" + rule + "]");
        }

        private static String shown(final String v)
        {
            return v == null ? "(not recorded)" : UntrustedText.escaped(v, 157);
        }
    }

    /**
     * @return the facts of {@code b} that differ from those of baseline {@code a}. The workload hash covers every
     *         request body, which carries the model's name and decoding: when one of those changed, the hash follows
     *         from it and is no refusal (the workload's own declared facts are still diffed).
     */
    public static ContractDiff of(final RunRecord a, final RunRecord b)
    {
        final boolean bodiesChanged = Facts.BODY.stream().anyMatch(f -> !f.same(a, b));
        final List<Difference> d = new ArrayList<>();
        for (final Fact f : Facts.ALL)
        {
            if (!f.same(a, b))
            {
                final String rule = bodiesChanged && Facts.WORKLOAD.equals(f.rule()) ? null : f.rule();
                d.add(new Difference(f.group(), f.key(), f.value(a), f.value(b), f.declared(), rule));
            }
        }
        return new ContractDiff(d);
    }

    /** @return the differences that forbid a comparison. */
    public List<Difference> refusals()
    {
        return differences.stream().filter(x -> x.rule() != null).toList();
    }

    /** @return the refusal rules broken, in the rules' order. */
    public List<String> brokenRules()
    {
        final Set<String> broken = new LinkedHashSet<>();
        for (final String rule : Facts.RULES)
        {
            if (differences.stream().anyMatch(x -> rule.equals(x.rule())))
            {
                broken.add(rule);
            }
        }
        return List.copyOf(broken);
    }

    /** @return the declared variables that changed. */
    public List<Difference> variables()
    {
        return differences.stream().filter(Difference::declared).toList();
    }

    /** @return {@code same}, {@code one-variable} or {@code whole-stack}. */
    public String verdict()
    {
        final int n = variables().size();
        return n == 0 ? "same" : n == 1 ? "one-variable" : "whole-stack";
    }

    /**
     * @return the verdict as a plain sentence; a pair that breaks a refusal rule has no identified effect, whatever
     * changed, and the sentence says so rather than claim one under its own refusal.
     */
    public String sentence()
    {
        final List<Difference> v = variables();
        if (!refusals().isEmpty())
        {
            return "they differ in " + String.join(", ", brokenRules()) + ", which makes their figures " +
                "incomparable: no effect is identified" + (v.isEmpty() ? "" : " (declared variables changed: " +
                String.join(", ", v.stream().map(x -> x.group() + " " + x.key()).toList()) + ")");
        }
        if (v.isEmpty())
        {
            return "the same contract: any difference is run-to-run noise or drift";
        }
        if (v.size() == 1)
        {
            return "exactly one variable changed (" + v.get(0).group() + " " + v.get(0).key() + "): the effect of " +
                "that change is identified";
        }
        final Set<String> groups = new LinkedHashSet<>();
        v.forEach(x -> groups.add(x.group()));
        return v.size() + " variables changed, in " + String.join(", ", groups) + ": whole stacks are compared, no " +
            "single effect is identified";
    }
}
