/**
 * {@code kvfleet bench fleet}: our end-to-end transfer latency and throughput measured beside the
 * raw Kafka round trip on the same broker, with open-loop fixed-rate and closed-loop saturation
 * phases and HdrHistogram latencies.
 */
package io.kvfleet.control.bench;
