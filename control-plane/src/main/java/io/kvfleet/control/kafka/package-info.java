/**
 * Kafka plumbing: the embedded KRaft broker (PLAINTEXT, or SASL_SSL with ACLs per role), topic
 * creation, publishing and tailing envelopes, and {@link io.kvfleet.control.kafka.KafkaClients}, the
 * one place Kafka clients are made with the cluster's client properties.
 */
package io.kvfleet.control.kafka;
