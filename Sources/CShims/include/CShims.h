#ifndef HLSQ_CSHIMS_H
#define HLSQ_CSHIMS_H

// Typed wrappers for the C functions and macros that Swift cannot call: variadic functions
// get one wrapper per argument kind, function-like macros become functions or constants.
// Every name starts with `hlsq_` and the library's short name.

#include <stdint.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <sqlite3.h>

// MARK: - libcurl: curl_easy_setopt

CURLcode hlsq_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode hlsq_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode hlsq_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode hlsq_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
CURLcode hlsq_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                              curl_write_callback callback);
/// For CURLOPT_XFERINFOFUNCTION.
CURLcode hlsq_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);

// MARK: - libcurl: curl_easy_getinfo

CURLcode hlsq_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode hlsq_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode hlsq_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
/// The string stays owned by the handle and lives until the next transfer or cleanup.
CURLcode hlsq_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
/// For CURLINFO_PRIVATE.
CURLcode hlsq_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value);

// MARK: - libcurl: curl_multi_setopt

CURLMcode hlsq_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode hlsq_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value);

// MARK: - libmicrohttpd

/// Starts a daemon. `options` is an array ended by `{MHD_OPTION_END, 0, NULL}`, passed as
/// MHD_OPTION_ARRAY; the completion callback is passed as MHD_OPTION_NOTIFY_COMPLETED when
/// it is not NULL.
struct MHD_Daemon *hlsq_mhd_start(unsigned int flags, uint16_t port,
                                  MHD_AccessHandlerCallback handler, void *handler_context,
                                  MHD_RequestCompletedCallback completed,
                                  void *completed_context,
                                  const struct MHD_OptionItem *options);

/// The port the daemon is bound to (useful after binding port 0), or 0 when unknown.
uint16_t hlsq_mhd_daemon_port(struct MHD_Daemon *daemon);

/// The peer address of a connection, or NULL.
const struct sockaddr *hlsq_mhd_connection_client_address(struct MHD_Connection *connection);

/// A response holding its own copy of `size` bytes at `buffer`. (The constants of
/// `enum MHD_ResponseMemoryMode` do not import into Swift.)
struct MHD_Response *hlsq_mhd_response_copying(size_t size, const void *buffer);

/// Sets the idle timeout of one connection, in seconds.
enum MHD_Result hlsq_mhd_set_connection_timeout(struct MHD_Connection *connection,
                                                unsigned int seconds);

/// The signature of MHD_OPTION_URI_LOG_CALLBACK: its result becomes the request's context.
typedef void *(*hlsq_mhd_uri_log_callback)(void *context, const char *uri,
                                           struct MHD_Connection *connection);

/// An option item for MHD_OPTION_URI_LOG_CALLBACK. (Options that take a function and its
/// context pass the function as `intptr_t`, a cast Swift cannot write.)
struct MHD_OptionItem hlsq_mhd_option_uri_log_callback(hlsq_mhd_uri_log_callback callback,
                                                       void *context);

// MARK: - libavformat and libavutil error codes (function-like macros)

int hlsq_averror(int posix_error);
extern const int hlsq_averror_eof;
extern const int hlsq_averror_exit;
extern const int hlsq_averror_invaliddata;
extern const int hlsq_averror_decoder_not_found;
extern const int hlsq_averror_demuxer_not_found;
extern const int hlsq_averror_http_not_found;
extern const int hlsq_averror_http_forbidden;
extern const int hlsq_averror_http_server_error;
extern const int hlsq_averror_protocol_not_found;
extern const int hlsq_averror_stream_not_found;
extern const int hlsq_averror_http_bad_request;
extern const int hlsq_averror_http_unauthorized;
extern const int hlsq_averror_http_other_4xx;

// MARK: - SQLite

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
sqlite3_destructor_type hlsq_sqlite_transient(void);

/// sqlite3_db_config for the options that take an int and report the resulting setting
/// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, SQLITE_DBCONFIG_ENABLE_FKEY, …); `result` may be NULL.
int hlsq_sqlite_db_config_int(sqlite3 *db, int option, int value, int *result);

#endif
