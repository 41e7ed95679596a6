/**
 * The price model and what a run's usage and successes cost under it ({@code cost} in the record); no I/O.
 */
package io.tokenclock.cost;
