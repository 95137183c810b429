#ifndef HLSQ_CAVFORMAT_SHIM_H
#define HLSQ_CAVFORMAT_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#endif
