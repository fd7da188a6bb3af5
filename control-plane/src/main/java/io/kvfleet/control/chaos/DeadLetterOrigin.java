package io.kvfleet.control.chaos;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Where a dead-lettered record came from, as {@code topic-partition@offset}, read from its headers. */
final class DeadLetterOrigin {
  private DeadLetterOrigin() {}

  static String of(ConsumerRecord<byte[], byte[]> deadLetter) {
    return header(deadLetter, "kvfleet.origin.topic") + "-" + header(deadLetter, "kvfleet.origin.partition")
        + "@" + header(deadLetter, "kvfleet.origin.offset");
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    var header = record.headers().lastHeader(name);
    return header == null ? "?" : new String(header.value(), StandardCharsets.UTF_8);
  }
}
