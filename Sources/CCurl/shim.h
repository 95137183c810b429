#ifndef HLSQ_CCURL_SHIM_H
#define HLSQ_CCURL_SHIM_H
#include <curl/curl.h>
#endif
