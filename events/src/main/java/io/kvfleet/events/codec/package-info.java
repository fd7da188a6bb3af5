/**
 * The wire form of events: each {@link io.kvfleet.events.Envelope} as one CloudEvents 1.0
 * structured-mode JSON document, and the Kafka serializer and deserializer around it. Reading
 * never throws on what a log holds: unknown types stay opaque, broken records come back as
 * {@link io.kvfleet.events.codec.Decoded.Malformed}.
 */
package io.kvfleet.events.codec;
