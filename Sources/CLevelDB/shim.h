#ifndef SANDNET_CLEVELDB_SHIM_H
#define SANDNET_CLEVELDB_SHIM_H
#include <leveldb/c.h>
#endif
