package io.kvfleet.events.codec;

import java.util.List;

/** The CloudEvents attribute names and fixed values kvfleet writes. */
public final class CloudEvents {
  private CloudEvents() {}

  /** The only {@code specversion} this codec reads and writes. */
  public static final String SPEC_VERSION = "1.0";

  /** The {@code datacontenttype}: {@code data} is a JSON object. */
  public static final String DATA_CONTENT_TYPE = "application/json";

  public static final String SPECVERSION = "specversion";
  public static final String ID = "id";
  public static final String SOURCE = "source";
  public static final String TYPE = "type";
  public static final String SUBJECT = "subject";
  public static final String TIME = "time";
  public static final String DATACONTENTTYPE = "datacontenttype";
  public static final String DATA = "data";

  // Extension attributes: lowercase letters and digits only, as CloudEvents requires.
  public static final String PRODUCER = "producer";
  public static final String EPOCH = "epoch";
  public static final String SEQUENCE = "sequence";
  public static final String SCHEMAVERSION = "schemaversion";
  public static final String CORRELATIONID = "correlationid";

  /** Every attribute kvfleet may write, in the order it writes them. */
  public static final List<String> ATTRIBUTES =
      List.of(
          SPECVERSION, ID, SOURCE, TYPE, SUBJECT, TIME, DATACONTENTTYPE,
          PRODUCER, EPOCH, SEQUENCE, SCHEMAVERSION, CORRELATIONID, DATA);

  /** The extension attributes among {@link #ATTRIBUTES}. */
  public static final List<String> EXTENSIONS =
      List.of(PRODUCER, EPOCH, SEQUENCE, SCHEMAVERSION, CORRELATIONID);
}
