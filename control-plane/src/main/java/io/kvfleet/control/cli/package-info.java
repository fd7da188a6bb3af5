/** The {@code kvfleet} command line (picocli): demo, tail, kafka and the benchmarks. */
package io.kvfleet.control.cli;
