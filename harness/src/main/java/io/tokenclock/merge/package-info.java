/**
 * {@code tokenclock merge}: the shards of one run put back together from their run directories alone
 * ({@link io.tokenclock.merge.ShardMerge}): what it refuses ({@code ShardChecks}), the merged
 * record ({@code MergedRecord}, {@code MergedSections}) and the requests on
 * the wall clock ({@code MergedRequests}), histograms added bucket by bucket from the shards'
 * {@code .hlog} files, never percentiles averaged (docs/DISTRIBUTED.md).
 * <p>
 * What it may import is its row, {@code merge}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds it
 * to; it never imports {@code run}, {@code runner} or {@code cli}: it runs nothing, and a shard is what its directory
 * holds.
 */
package io.tokenclock.merge;
