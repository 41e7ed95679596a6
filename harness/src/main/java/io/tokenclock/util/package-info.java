/**
 * Small helpers that several layers share and that depend on nothing else in tokenclock, so that any package may use
 * them without a dependency cycle (e.g. {@code load} and {@code workload}, where {@code workload} already depends on
 * {@code load}).
 */
package io.tokenclock.util;
