/**
 * {@code tokenclock compare}, and the contract diff {@code ab} shares: two or more results, whatever their kind, set
 * side by side ({@link io.tokenclock.compare.Comparison}), their contracts diffed fact by fact by protocol group
 * ({@link io.tokenclock.compare.ContractDiff}), the refusal rules applied ({@code Facts}), and
 * each figure's difference with its interval, written as {@code compare.json}
 * ({@link io.tokenclock.compare.CompareJson}).
 * <p>
 * What it may import is its row, {@code compare}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds
 * it to; it never imports {@code run}, {@code runner}, {@code report} or {@code cli}: it works from results on disk
 * and returns what the command line prints or writes.
 */
package io.tokenclock.compare;
