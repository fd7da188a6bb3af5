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
  /** The id of the key that signed the document (a signed fleet only); see {@code SignedDocument}. */
  public static final String KEYID = "keyid";
  /** The Ed25519 signature, base64url without padding; always the document's last member. */
  public static final String SIGNATURE = "signature";

  /** Every attribute kvfleet may write, in the order it writes them. */
  public static final List<String> ATTRIBUTES =
      List.of(
          SPECVERSION, ID, SOURCE, TYPE, SUBJECT, TIME, DATACONTENTTYPE,
          PRODUCER, EPOCH, SEQUENCE, SCHEMAVERSION, CORRELATIONID, DATA);

  /** What a signing producer adds after {@link #ATTRIBUTES}, in this order (see {@code SignedDocument}). */
  public static final List<String> SIGNED_ATTRIBUTES = List.of(KEYID, SIGNATURE);

  /** The extension attributes among {@link #ATTRIBUTES}. */
  public static final List<String> EXTENSIONS =
      List.of(PRODUCER, EPOCH, SEQUENCE, SCHEMAVERSION, CORRELATIONID, KEYID, SIGNATURE);
}
