/**
 * Linux's socket API reached through the Foreign Function &amp; Memory API (JDK 22+), for reads and sends that the
 * kernel stamps: non-blocking TCP sockets, epoll, {@code recvmsg} with {@code SO_TIMESTAMPING}, the
 * {@code SCM_TIMESTAMPING} control message, the error queue's send stamps, and the bridge from the kernel's
 * {@code CLOCK_REALTIME} stamps to the run's monotonic clock. It knows nothing of HTTP or of the measurement core;
 * {@code transport.KernelStreamClient} (the harness) builds on it, and the accuracy module's truth server stamps its
 * own sends with it. Its own module ({@code kernel/}), so that both use one copy.
 * <p>
 * It imports no other tokenclock package: its row, {@code transport.kernel}, in docs/ARCHITECTURE.md's table, which
 * LayeringTest holds it to.
 */
package io.tokenclock.transport.kernel;
