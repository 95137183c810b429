#ifndef HLSQ_CSQLITE_SHIM_H
#define HLSQ_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
