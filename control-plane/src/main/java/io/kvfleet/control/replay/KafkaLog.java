package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.ReplayOrder;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads fleet topics from Kafka as they stood when it opened (up to the end offsets it found then)
 * and hands the records over in replay order ({@link ReplayOrder}): one buffer per partition, and
 * the head with the smallest (timestamp, topic, partition, offset) goes next once every partition
 * that has records left has one buffered. A partition that runs ahead is paused, so memory stays
 * bounded by a few thousand records per partition.
 */
public final class KafkaLog implements AutoCloseable {
  private static final int PAUSE_AT = 20_000;
  private static final int RESUME_AT = 5_000;
  private static final Duration STALL = Duration.ofSeconds(60);

  /** Per partition ({@code topic-partition}), the first offset read and the offset after the last. */
  public record Bounds(SortedMap<String, Long> start, SortedMap<String, Long> end) {
    /** How many offsets lie between the bounds. */
    public long size() {
      return end.entrySet().stream().mapToLong(e -> Math.max(0, e.getValue() - start.getOrDefault(e.getKey(), 0L))).sum();
    }
  }

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final String bootstrapServers;
  private final List<Partition> partitions = new ArrayList<>();
  private final Bounds bounds;

  private static final class Partition {
    final TopicPartition tp;
    final long end;
    final ArrayDeque<ConsumerRecord<byte[], byte[]>> buffer = new ArrayDeque<>();
    /** The head's timestamp, kept here so the merge compares these few objects, not records all over the heap. */
    long headTime;
    boolean fetchedAll;
    boolean paused;

    Partition(TopicPartition tp, long end) {
      this.tp = tp;
      this.end = end;
    }

    boolean open() {
      return !(fetchedAll && buffer.isEmpty());
    }
  }

  private KafkaLog(String bootstrapServers, List<String> topics, Map<String, OffsetRange> ranges) {
    this.bootstrapServers = bootstrapServers;
    this.consumer = KafkaClients.consumer(bootstrapServers, Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, "kvfleet-replay",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000,
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    try {
      this.bounds = assign(topics, ranges);
    } catch (RuntimeException e) {
      consumer.close();
      throw e instanceof KvfleetException ? e : KvfleetException.kafkaUnreachable(bootstrapServers, e);
    }
  }

  /**
   * Opens {@code topics} on the cluster; {@code ranges} (by {@code topic-partition}) narrows the
   * offsets of some partitions.
   */
  public static KafkaLog open(String bootstrapServers, List<String> topics, Map<String, OffsetRange> ranges) {
    return new KafkaLog(bootstrapServers, topics, ranges);
  }

  /** The offsets this log covers. */
  public Bounds bounds() {
    return bounds;
  }

  /** Per partition, the offset after the last record this log covers (where a follower goes on). */
  public Map<TopicPartition, Long> endOffsets() {
    var ends = new java.util.HashMap<TopicPartition, Long>();
    partitions.forEach(p -> ends.put(p.tp, p.end));
    return ends;
  }

  private Bounds assign(List<String> topics, Map<String, OffsetRange> ranges) {
    var tps = new ArrayList<TopicPartition>();
    for (String topic : topics) {
      var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (infos == null || infos.isEmpty()) {
        throw KvfleetException.badInput("topic " + topic + " does not exist on " + bootstrapServers);
      }
      infos.forEach(i -> tps.add(new TopicPartition(i.topic(), i.partition())));
    }
    var begin = consumer.beginningOffsets(tps);
    var end = consumer.endOffsets(tps);
    consumer.assign(tps);
    var starts = new TreeMap<String, Long>();
    var ends = new TreeMap<String, Long>();
    for (TopicPartition tp : tps) {
      String key = LogPosition.partitionKey(tp.topic(), tp.partition());
      OffsetRange range = ranges.get(key);
      long from = Math.max(begin.get(tp), range == null ? 0 : range.from());
      long to = Math.min(end.get(tp), range == null ? Long.MAX_VALUE : range.to() + 1);
      starts.put(key, from);
      ends.put(key, Math.max(from, to));
      var partition = new Partition(tp, Math.max(from, to));
      partition.fetchedAll = from >= to;
      partitions.add(partition);
      consumer.seek(tp, from);
    }
    return new Bounds(starts, ends);
  }

  /** Hands every record to {@code sink} in replay order, until the end or until {@code sink} says false. */
  public void read(Predicate<ConsumerRecord<byte[], byte[]>> sink) {
    long lastProgress = System.nanoTime();
    while (partitions.stream().anyMatch(Partition::open)) {
      if (partitions.stream().anyMatch(p -> !p.fetchedAll && p.buffer.isEmpty())) {
        if (!poll()) {
          if (System.nanoTime() - lastProgress > STALL.toNanos()) {
            throw KvfleetException.kafkaUnreachable(bootstrapServers,
                new IllegalStateException("no record for " + STALL.toSeconds() + " s before the end offsets"));
          }
          continue;
        }
        lastProgress = System.nanoTime();
      }
      if (!emitReady(sink)) {
        return;
      }
    }
  }

  /** Polls once; whether anything changed. */
  private boolean poll() {
    var records = consumer.poll(Duration.ofMillis(200));
    boolean changed = !records.isEmpty();
    for (Partition p : partitions) {
      for (var r : records.records(p.tp)) {
        if (r.offset() < p.end) {
          if (p.buffer.isEmpty()) {
            p.headTime = r.timestamp();
          }
          p.buffer.add(r);
        }
      }
      if (!p.fetchedAll && consumer.position(p.tp) >= p.end) {
        p.fetchedAll = true;
        changed = true;
      }
      flowControl(p);
    }
    return changed;
  }

  /** Emits heads while every open partition has one; false if the sink asked to stop. */
  private boolean emitReady(Predicate<ConsumerRecord<byte[], byte[]>> sink) {
    while (true) {
      Partition next = null;
      for (Partition p : partitions) {
        if (p.buffer.isEmpty()) {
          if (!p.fetchedAll) {
            return true; // its next record may come first: wait for it
          }
          continue;
        }
        if (next == null || p.headTime < next.headTime
            || p.headTime == next.headTime && before(p.buffer.peekFirst(), next.buffer.peekFirst())) {
          next = p;
        }
      }
      if (next == null) {
        return true;
      }
      var record = next.buffer.pollFirst();
      if (!next.buffer.isEmpty()) {
        next.headTime = next.buffer.peekFirst().timestamp();
      }
      if (next.paused && next.buffer.size() < RESUME_AT) {
        flowControl(next);
      }
      if (!sink.test(record)) {
        return false;
      }
    }
  }

  private void flowControl(Partition p) {
    if (!p.paused && p.buffer.size() >= PAUSE_AT) {
      consumer.pause(List.of(p.tp));
      p.paused = true;
    } else if (p.paused && p.buffer.size() < RESUME_AT) {
      consumer.resume(List.of(p.tp));
      p.paused = false;
    }
  }

  private static boolean before(ConsumerRecord<?, ?> a, ConsumerRecord<?, ?> b) {
    return ReplayOrder.compare(a.timestamp(), a.topic(), a.partition(), a.offset(),
        b.timestamp(), b.topic(), b.partition(), b.offset()) < 0;
  }

  @Override
  public void close() {
    consumer.close();
  }
}
