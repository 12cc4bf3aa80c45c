/* fake_http.h: what fuzz_stream tells fake_http.c to answer with. */
#ifndef FAKE_HTTP_H
#define FAKE_HTTP_H

#include <stddef.h>
#include <stdint.h>

extern const uint8_t *fake_http_data;
extern size_t fake_http_len;

#endif
