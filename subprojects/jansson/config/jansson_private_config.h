/*
 * jansson_private_config.h for ledge's WebAssembly build (emscripten,
 * wasm32), written by hand from jansson's
 * cmake/jansson_private_config.h.cmake with what CMake's checks find
 * there: emscripten's libc (musl) has these headers and functions. No
 * /dev/urandom is read (the build has no file system): the hash seed
 * comes from gettimeofday and getpid. No dtoa.c: reals are written with
 * "%.17g", which reads back to the same double.
 *
 * Jansson is free software; you can redistribute it and/or modify
 * it under the terms of the MIT license. See LICENSE for details.
 */

#define HAVE_ENDIAN_H 1
#define HAVE_FCNTL_H 1
#define HAVE_SCHED_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STDINT_H 1

#define HAVE_CLOSE 1
#define HAVE_GETPID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_OPEN 1
#define HAVE_READ 1
#define HAVE_SCHED_YIELD 1

#define HAVE_SYNC_BUILTINS 1
#define HAVE_ATOMIC_BUILTINS 1

#define HAVE_LOCALE_H 1
#define HAVE_SETLOCALE 1

/* wasm32 is little-endian: WORDS_BIGENDIAN is not defined. */

#define HAVE_INT32_T 1
#define HAVE_UINT32_T 1
#define HAVE_UINT16_T 1
#define HAVE_UINT8_T 1
#define HAVE_SSIZE_T 1

/* USE_URANDOM and USE_WINDOWS_CRYPTOAPI are not defined. */

/* USE_DTOA is not defined. */
#define DTOA_ENABLED 0

#define INITIAL_HASHTABLE_ORDER 3
