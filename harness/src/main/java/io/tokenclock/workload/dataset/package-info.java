/**
 * Datasets of prompts (and references for the quality checks), read from files into entries.
 */
package io.tokenclock.workload.dataset;
