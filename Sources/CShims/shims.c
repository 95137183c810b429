#include "CShims.h"
#include <libavutil/error.h>

CURLcode hlsq_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode hlsq_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode hlsq_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode hlsq_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode hlsq_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                              curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode hlsq_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode hlsq_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode hlsq_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode hlsq_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode hlsq_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *string = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &string);
    *value = string;
    return code;
}

CURLcode hlsq_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    char *pointer = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &pointer);
    *value = pointer;
    return code;
}

CURLMcode hlsq_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode hlsq_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

struct MHD_Daemon *hlsq_mhd_start(unsigned int flags, uint16_t port,
                                  MHD_AccessHandlerCallback handler, void *handler_context,
                                  MHD_RequestCompletedCallback completed,
                                  void *completed_context,
                                  const struct MHD_OptionItem *options) {
    static const struct MHD_OptionItem no_options[] = {{MHD_OPTION_END, 0, NULL}};
    if (options == NULL) {
        options = no_options;
    }
    if (completed == NULL) {
        return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                                MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t hlsq_mhd_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

const struct sockaddr *hlsq_mhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

struct MHD_Response *hlsq_mhd_response_copying(size_t size, const void *buffer) {
    return MHD_create_response_from_buffer(size, (void *)buffer, MHD_RESPMEM_MUST_COPY);
}

enum MHD_Result hlsq_mhd_set_connection_timeout(struct MHD_Connection *connection,
                                                unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

struct MHD_OptionItem hlsq_mhd_option_uri_log_callback(hlsq_mhd_uri_log_callback callback,
                                                       void *context) {
    struct MHD_OptionItem item = {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callback, context};
    return item;
}

int hlsq_averror(int posix_error) {
    return AVERROR(posix_error);
}

const int hlsq_averror_eof = AVERROR_EOF;
const int hlsq_averror_exit = AVERROR_EXIT;
const int hlsq_averror_invaliddata = AVERROR_INVALIDDATA;
const int hlsq_averror_decoder_not_found = AVERROR_DECODER_NOT_FOUND;
const int hlsq_averror_demuxer_not_found = AVERROR_DEMUXER_NOT_FOUND;
const int hlsq_averror_http_not_found = AVERROR_HTTP_NOT_FOUND;
const int hlsq_averror_http_forbidden = AVERROR_HTTP_FORBIDDEN;
const int hlsq_averror_http_server_error = AVERROR_HTTP_SERVER_ERROR;
const int hlsq_averror_protocol_not_found = AVERROR_PROTOCOL_NOT_FOUND;
const int hlsq_averror_stream_not_found = AVERROR_STREAM_NOT_FOUND;
const int hlsq_averror_http_bad_request = AVERROR_HTTP_BAD_REQUEST;
const int hlsq_averror_http_unauthorized = AVERROR_HTTP_UNAUTHORIZED;
const int hlsq_averror_http_other_4xx = AVERROR_HTTP_OTHER_4XX;

sqlite3_destructor_type hlsq_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

int hlsq_sqlite_db_config_int(sqlite3 *db, int option, int value, int *result) {
    return sqlite3_db_config(db, option, value, result);
}
