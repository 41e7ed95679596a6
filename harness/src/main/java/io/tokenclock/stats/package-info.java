/**
 * Statistics of repetitions and A/B comparisons: the bootstrap, distribution-free order-statistic bounds on
 * quantiles, and the outlier rule.
 */
package io.tokenclock.stats;
