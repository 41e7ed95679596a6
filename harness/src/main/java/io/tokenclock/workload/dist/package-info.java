/**
 * Length distributions (fixed, uniform, Gaussian, log-normal, mixtures, empirical, correlated) for prompts and
 * answers, each seeded and reproducible.
 */
package io.tokenclock.workload.dist;
