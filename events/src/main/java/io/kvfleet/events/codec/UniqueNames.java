package io.kvfleet.events.codec;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.util.Arrays;

/**
 * A parser that refuses a name repeated inside one object, at any depth, skipped structures
 * included: what Jackson's {@code STRICT_DUPLICATE_DETECTION} does, without its hash set per object
 * of three or more fields (a third of the streaming reader's time). Names are few per object, so
 * a scan of the ones seen is cheaper. Every token passes through {@link #nextToken}: Jackson's other
 * {@code next…} methods call it, and {@link #nextValue} and {@link #skipChildren}, which the
 * delegate would hand straight to the parser underneath, are routed through it here.
 */
final class UniqueNames extends JsonParserDelegate {
  private String[][] names = new String[8][];
  private int[][] hashes = new int[8][]; // the names' hashes, compared first
  private int[] counts = new int[8];
  private int depth = -1; // the innermost open object; -1 outside any

  UniqueNames(JsonParser parser) {
    super(parser);
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken token = delegate.nextToken();
    if (token == JsonToken.START_OBJECT) {
      open();
    } else if (token == JsonToken.END_OBJECT) {
      depth--;
    } else if (token == JsonToken.FIELD_NAME) {
      seen(delegate.currentName());
    } else if (token == JsonToken.START_ARRAY) {
      open(); // arrays hold no names; a frame keeps the depths of objects inside them right
    } else if (token == JsonToken.END_ARRAY) {
      depth--;
    }
    return token;
  }

  @Override
  public JsonToken nextValue() throws IOException {
    JsonToken token = nextToken();
    return token == JsonToken.FIELD_NAME ? nextToken() : token;
  }

  @Override
  public JsonParser skipChildren() throws IOException {
    JsonToken current = currentToken();
    if (current != JsonToken.START_OBJECT && current != JsonToken.START_ARRAY) {
      return this;
    }
    for (int open = 1; open > 0; ) {
      JsonToken token = nextToken();
      if (token == null) {
        return this; // the end of the input: the next read reports it
      }
      if (token.isStructStart()) {
        open++;
      } else if (token.isStructEnd()) {
        open--;
      }
    }
    return this;
  }

  private void open() {
    if (++depth == counts.length) {
      names = Arrays.copyOf(names, depth * 2);
      hashes = Arrays.copyOf(hashes, depth * 2);
      counts = Arrays.copyOf(counts, depth * 2);
    }
    counts[depth] = 0;
  }

  private void seen(String name) throws JsonParseException {
    String[] frame = names[depth];
    int[] hashFrame = hashes[depth];
    int count = counts[depth];
    int hash = name.hashCode();
    for (int i = 0; i < count; i++) {
      if (hashFrame[i] == hash && frame[i].equals(name)) {
        throw new JsonParseException(delegate, "Duplicate field '" + name + "'");
      }
    }
    if (frame == null || count == frame.length) {
      int size = frame == null ? 16 : count * 2;
      frame = names[depth] = frame == null ? new String[size] : Arrays.copyOf(frame, size);
      hashFrame = hashes[depth] = hashFrame == null ? new int[size] : Arrays.copyOf(hashFrame, size);
    }
    frame[count] = name;
    hashFrame[count] = hash;
    counts[depth] = count + 1;
  }
}
