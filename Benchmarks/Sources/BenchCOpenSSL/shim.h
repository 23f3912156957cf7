#ifndef SANDNET_COPENSSL_SHIM_H
#define SANDNET_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif
