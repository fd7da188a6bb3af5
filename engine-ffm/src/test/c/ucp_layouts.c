/*
 * Prints the size of every UCX struct the FFM binding uses, and the offset and size of every
 * field it declares, as compiled against the installed ucp.h. UcpLayoutConformanceTest compiles
 * this at test time into target/ and compares the output with UcpLayouts.
 *
 * Output lines:  <struct> sizeof <n>   and   <struct>.<field> <offset> <size>
 */
#include <stddef.h>
#include <stdio.h>
#include <ucp/api/ucp.h>

#define SIZE(T) printf("%s sizeof %zu\n", #T, sizeof(T))
#define FIELD(T, f) printf("%s.%s %zu %zu\n", #T, #f, offsetof(T, f), sizeof(((T *)0)->f))

int main(void) {
    printf("ucp_api %d.%d\n", UCP_API_MAJOR, UCP_API_MINOR);

    SIZE(ucp_params_t);
    FIELD(ucp_params_t, field_mask);
    FIELD(ucp_params_t, features);
    FIELD(ucp_params_t, request_size);
    FIELD(ucp_params_t, request_init);
    FIELD(ucp_params_t, request_cleanup);
    FIELD(ucp_params_t, tag_sender_mask);
    FIELD(ucp_params_t, mt_workers_shared);
    FIELD(ucp_params_t, estimated_num_eps);
    FIELD(ucp_params_t, estimated_num_ppn);
    FIELD(ucp_params_t, name);

    SIZE(ucp_context_attr_t);
    FIELD(ucp_context_attr_t, field_mask);
    FIELD(ucp_context_attr_t, request_size);
    FIELD(ucp_context_attr_t, thread_mode);
    FIELD(ucp_context_attr_t, memory_types);
    FIELD(ucp_context_attr_t, name);

    SIZE(ucp_worker_params_t);
    FIELD(ucp_worker_params_t, field_mask);
    FIELD(ucp_worker_params_t, thread_mode);
    FIELD(ucp_worker_params_t, cpu_mask);
    FIELD(ucp_worker_params_t, events);
    FIELD(ucp_worker_params_t, user_data);
    FIELD(ucp_worker_params_t, event_fd);
    FIELD(ucp_worker_params_t, flags);
    FIELD(ucp_worker_params_t, name);
    FIELD(ucp_worker_params_t, am_alignment);
    FIELD(ucp_worker_params_t, client_id);

    SIZE(ucs_sock_addr_t);
    FIELD(ucs_sock_addr_t, addr);
    FIELD(ucs_sock_addr_t, addrlen);

    SIZE(ucp_err_handler_t);
    FIELD(ucp_err_handler_t, cb);
    FIELD(ucp_err_handler_t, arg);

    SIZE(ucp_ep_params_t);
    FIELD(ucp_ep_params_t, field_mask);
    FIELD(ucp_ep_params_t, address);
    FIELD(ucp_ep_params_t, err_mode);
    FIELD(ucp_ep_params_t, err_handler);
    FIELD(ucp_ep_params_t, user_data);
    FIELD(ucp_ep_params_t, flags);
    FIELD(ucp_ep_params_t, sockaddr);
    FIELD(ucp_ep_params_t, conn_request);
    FIELD(ucp_ep_params_t, name);
    FIELD(ucp_ep_params_t, local_sockaddr);

    SIZE(ucp_mem_map_params_t);
    FIELD(ucp_mem_map_params_t, field_mask);
    FIELD(ucp_mem_map_params_t, address);
    FIELD(ucp_mem_map_params_t, length);
    FIELD(ucp_mem_map_params_t, flags);
    FIELD(ucp_mem_map_params_t, prot);
    FIELD(ucp_mem_map_params_t, memory_type);

    SIZE(ucp_mem_attr_t);
    FIELD(ucp_mem_attr_t, field_mask);
    FIELD(ucp_mem_attr_t, address);
    FIELD(ucp_mem_attr_t, length);
    FIELD(ucp_mem_attr_t, mem_type);

    SIZE(ucp_request_param_t);
    FIELD(ucp_request_param_t, op_attr_mask);
    FIELD(ucp_request_param_t, flags);
    FIELD(ucp_request_param_t, request);
    FIELD(ucp_request_param_t, cb);
    FIELD(ucp_request_param_t, datatype);
    FIELD(ucp_request_param_t, user_data);
    FIELD(ucp_request_param_t, reply_buffer);
    FIELD(ucp_request_param_t, memory_type);
    FIELD(ucp_request_param_t, recv_info);
    FIELD(ucp_request_param_t, memh);

    SIZE(ucp_am_handler_param_t);
    FIELD(ucp_am_handler_param_t, field_mask);
    FIELD(ucp_am_handler_param_t, id);
    FIELD(ucp_am_handler_param_t, flags);
    FIELD(ucp_am_handler_param_t, cb);
    FIELD(ucp_am_handler_param_t, arg);

    SIZE(ucp_am_recv_param_t);
    FIELD(ucp_am_recv_param_t, recv_attr);
    FIELD(ucp_am_recv_param_t, reply_ep);
    return 0;
}
