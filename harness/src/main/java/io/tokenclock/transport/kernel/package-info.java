/**
 * Linux's socket API reached through the Foreign Function &amp; Memory API (JDK 22+), for reads that the kernel
 * stamps: non-blocking TCP sockets, epoll, {@code recvmsg} with {@code SO_TIMESTAMPING}, the {@code SCM_TIMESTAMPING}
 * control message, and the bridge from the kernel's {@code CLOCK_REALTIME} stamps to the run's monotonic clock. It
 * knows nothing of HTTP or of the measurement core; {@code transport.KernelStreamClient} builds on it.
 */
package io.tokenclock.transport.kernel;
