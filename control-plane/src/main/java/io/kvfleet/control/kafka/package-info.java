/** Kafka plumbing: the embedded KRaft broker, topic creation, publishing and tailing envelopes. */
package io.kvfleet.control.kafka;
