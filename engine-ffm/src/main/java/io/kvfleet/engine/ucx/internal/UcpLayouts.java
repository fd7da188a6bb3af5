package io.kvfleet.engine.ucx.internal;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * The UCX 1.13 structs the binding fills or reads, field for field as in {@code ucp.h} and {@code
 * ucp_def.h} (x86-64 LP64). {@code UcpLayoutConformanceTest} compiles a C program against the
 * installed headers and compares every size and offset with these.
 */
public final class UcpLayouts {
  private UcpLayouts() {}

  /** {@code ucp_params_t}: features and hints for {@code ucp_init_version}. */
  public static final StructLayout PARAMS = structLayout(
      JAVA_LONG.withName("field_mask"),
      JAVA_LONG.withName("features"),
      JAVA_LONG.withName("request_size"),
      ADDRESS.withName("request_init"),
      ADDRESS.withName("request_cleanup"),
      JAVA_LONG.withName("tag_sender_mask"),
      JAVA_INT.withName("mt_workers_shared"),
      paddingLayout(4),
      JAVA_LONG.withName("estimated_num_eps"),
      JAVA_LONG.withName("estimated_num_ppn"),
      ADDRESS.withName("name")).withName("ucp_params_t");

  /** {@code ucp_context_attr_t}: what {@code ucp_context_query} reports. */
  public static final StructLayout CONTEXT_ATTR = structLayout(
      JAVA_LONG.withName("field_mask"),
      JAVA_LONG.withName("request_size"),
      JAVA_INT.withName("thread_mode"),
      paddingLayout(4),
      JAVA_LONG.withName("memory_types"),
      sequenceLayout(32, JAVA_BYTE).withName("name")).withName("ucp_context_attr_t");

  /** {@code ucp_worker_params_t}; {@code cpu_mask} is a {@code ucs_cpu_set_t} of 1024 bits. */
  public static final StructLayout WORKER_PARAMS = structLayout(
      JAVA_LONG.withName("field_mask"),
      JAVA_INT.withName("thread_mode"),
      paddingLayout(4),
      sequenceLayout(16, JAVA_LONG).withName("cpu_mask"),
      JAVA_INT.withName("events"),
      paddingLayout(4),
      ADDRESS.withName("user_data"),
      JAVA_INT.withName("event_fd"),
      paddingLayout(4),
      JAVA_LONG.withName("flags"),
      ADDRESS.withName("name"),
      JAVA_LONG.withName("am_alignment"),
      JAVA_LONG.withName("client_id")).withName("ucp_worker_params_t");

  /** {@code ucs_sock_addr_t}: a sockaddr pointer and its length. */
  public static final StructLayout SOCK_ADDR = structLayout(
      ADDRESS.withName("addr"),
      JAVA_INT.withName("addrlen"),
      paddingLayout(4)).withName("ucs_sock_addr_t");

  /** {@code ucp_err_handler_t}: callback and argument. */
  public static final StructLayout ERR_HANDLER = structLayout(
      ADDRESS.withName("cb"),
      ADDRESS.withName("arg")).withName("ucp_err_handler_t");

  /** {@code ucp_ep_params_t}: we set the remote worker address and the error mode. */
  public static final StructLayout EP_PARAMS = structLayout(
      JAVA_LONG.withName("field_mask"),
      ADDRESS.withName("address"),
      JAVA_INT.withName("err_mode"),
      paddingLayout(4),
      ERR_HANDLER.withName("err_handler"),
      ADDRESS.withName("user_data"),
      JAVA_INT.withName("flags"),
      paddingLayout(4),
      SOCK_ADDR.withName("sockaddr"),
      ADDRESS.withName("conn_request"),
      ADDRESS.withName("name"),
      SOCK_ADDR.withName("local_sockaddr")).withName("ucp_ep_params_t");

  /** {@code ucp_mem_map_params_t}. */
  public static final StructLayout MEM_MAP_PARAMS = structLayout(
      JAVA_LONG.withName("field_mask"),
      ADDRESS.withName("address"),
      JAVA_LONG.withName("length"),
      JAVA_INT.withName("flags"),
      JAVA_INT.withName("prot"),
      JAVA_INT.withName("memory_type"),
      paddingLayout(4)).withName("ucp_mem_map_params_t");

  /** {@code ucp_mem_attr_t}: what {@code ucp_mem_query} reports. */
  public static final StructLayout MEM_ATTR = structLayout(
      JAVA_LONG.withName("field_mask"),
      ADDRESS.withName("address"),
      JAVA_LONG.withName("length"),
      JAVA_INT.withName("mem_type"),
      paddingLayout(4)).withName("ucp_mem_attr_t");

  /** {@code ucp_request_param_t}; {@code cb} and {@code recv_info} are unions of pointers. */
  public static final StructLayout REQUEST_PARAM = structLayout(
      JAVA_INT.withName("op_attr_mask"),
      JAVA_INT.withName("flags"),
      ADDRESS.withName("request"),
      ADDRESS.withName("cb"),
      JAVA_LONG.withName("datatype"),
      ADDRESS.withName("user_data"),
      ADDRESS.withName("reply_buffer"),
      JAVA_INT.withName("memory_type"),
      paddingLayout(4),
      ADDRESS.withName("recv_info"),
      ADDRESS.withName("memh")).withName("ucp_request_param_t");

  /** {@code ucp_am_handler_param_t}: an active-message id and its callback. */
  public static final StructLayout AM_HANDLER_PARAM = structLayout(
      JAVA_LONG.withName("field_mask"),
      JAVA_INT.withName("id"),
      JAVA_INT.withName("flags"),
      ADDRESS.withName("cb"),
      ADDRESS.withName("arg")).withName("ucp_am_handler_param_t");

  /** {@code ucp_am_recv_param_t}: what an active-message callback is told about the message. */
  public static final StructLayout AM_RECV_PARAM = structLayout(
      JAVA_LONG.withName("recv_attr"),
      ADDRESS.withName("reply_ep")).withName("ucp_am_recv_param_t");

  /** Every struct above by C name, for the conformance test. */
  public static final Map<String, StructLayout> ALL = Map.ofEntries(
      Map.entry("ucp_params_t", PARAMS),
      Map.entry("ucp_context_attr_t", CONTEXT_ATTR),
      Map.entry("ucp_worker_params_t", WORKER_PARAMS),
      Map.entry("ucp_ep_params_t", EP_PARAMS),
      Map.entry("ucp_mem_map_params_t", MEM_MAP_PARAMS),
      Map.entry("ucp_mem_attr_t", MEM_ATTR),
      Map.entry("ucp_request_param_t", REQUEST_PARAM),
      Map.entry("ucs_sock_addr_t", SOCK_ADDR),
      Map.entry("ucp_err_handler_t", ERR_HANDLER),
      Map.entry("ucp_am_handler_param_t", AM_HANDLER_PARAM),
      Map.entry("ucp_am_recv_param_t", AM_RECV_PARAM));


  // Field handles, bound once: (segment) -> value.
  public static final VarHandle AM_HANDLER_PARAM_FIELD_MASK = field(AM_HANDLER_PARAM, "field_mask");
  public static final VarHandle AM_HANDLER_PARAM_ID = field(AM_HANDLER_PARAM, "id");
  public static final VarHandle AM_HANDLER_PARAM_FLAGS = field(AM_HANDLER_PARAM, "flags");
  public static final VarHandle AM_HANDLER_PARAM_CB = field(AM_HANDLER_PARAM, "cb");
  public static final VarHandle AM_RECV_PARAM_RECV_ATTR = field(AM_RECV_PARAM, "recv_attr");
  public static final VarHandle AM_RECV_PARAM_REPLY_EP = field(AM_RECV_PARAM, "reply_ep");
  public static final VarHandle CONTEXT_ATTR_FIELD_MASK = field(CONTEXT_ATTR, "field_mask");
  public static final VarHandle CONTEXT_ATTR_MEMORY_TYPES = field(CONTEXT_ATTR, "memory_types");
  public static final VarHandle EP_PARAMS_ADDRESS = field(EP_PARAMS, "address");
  public static final VarHandle EP_PARAMS_ERR_MODE = field(EP_PARAMS, "err_mode");
  public static final VarHandle EP_PARAMS_FIELD_MASK = field(EP_PARAMS, "field_mask");
  public static final VarHandle MEM_ATTR_ADDRESS = field(MEM_ATTR, "address");
  public static final VarHandle MEM_ATTR_FIELD_MASK = field(MEM_ATTR, "field_mask");
  public static final VarHandle MEM_ATTR_LENGTH = field(MEM_ATTR, "length");
  public static final VarHandle MEM_ATTR_MEM_TYPE = field(MEM_ATTR, "mem_type");
  public static final VarHandle MEM_MAP_PARAMS_ADDRESS = field(MEM_MAP_PARAMS, "address");
  public static final VarHandle MEM_MAP_PARAMS_FIELD_MASK = field(MEM_MAP_PARAMS, "field_mask");
  public static final VarHandle MEM_MAP_PARAMS_FLAGS = field(MEM_MAP_PARAMS, "flags");
  public static final VarHandle MEM_MAP_PARAMS_LENGTH = field(MEM_MAP_PARAMS, "length");
  public static final VarHandle MEM_MAP_PARAMS_MEMORY_TYPE = field(MEM_MAP_PARAMS, "memory_type");
  public static final VarHandle PARAMS_FEATURES = field(PARAMS, "features");
  public static final VarHandle PARAMS_FIELD_MASK = field(PARAMS, "field_mask");
  public static final VarHandle PARAMS_MT_WORKERS_SHARED = field(PARAMS, "mt_workers_shared");
  public static final VarHandle PARAMS_NAME = field(PARAMS, "name");
  public static final VarHandle REQUEST_PARAM_FLAGS = field(REQUEST_PARAM, "flags");
  public static final VarHandle REQUEST_PARAM_MEMH = field(REQUEST_PARAM, "memh");
  public static final VarHandle REQUEST_PARAM_OP_ATTR_MASK = field(REQUEST_PARAM, "op_attr_mask");
  public static final VarHandle WORKER_PARAMS_FIELD_MASK = field(WORKER_PARAMS, "field_mask");
  public static final VarHandle WORKER_PARAMS_THREAD_MODE = field(WORKER_PARAMS, "thread_mode");

  /** A handle to {@code field} of {@code layout}, taking only the segment. */
  static VarHandle field(StructLayout layout, String field) {
    return MethodHandles.insertCoordinates(
        layout.varHandle(PathElement.groupElement(field)), 1, 0L);
  }
}
