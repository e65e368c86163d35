/* validator.h - the checks a message passes before it reaches the engine.
 *
 * The seed's MessageValidator: a size limit, valid UTF-8, well-formed JSON
 * where JSON is expected, a sender, and the optional allowlists (senders,
 * read-only senders). Each check writes the reason as a complete
 * `Fail "..."` reply into `why`, so that every transport refuses alike.
 */
#ifndef EDDI_SERVER_VALIDATOR_H
#define EDDI_SERVER_VALIDATOR_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* Longest sender name accepted; senders become log fields and map keys. */
#define VALIDATOR_SENDER_MAX 128

bool validator_utf8_valid(const char *data, size_t len);

/* Size limit and UTF-8. */
int validator_check_bytes(const ServerOptions *options, const char *data, size_t len, char *why,
                          size_t why_size);

/* Parse data as one JSON object into *object (the caller puts it). */
int validator_parse_json(const char *data, size_t len, json_object **object, char *why,
                         size_t why_size);

/* A string member of object, or NULL when absent; SERVER_EINVAL (with why)
 * when present but not a non-empty string. */
int validator_get_string(json_object *object, const char *key, const char **value, char *why,
                         size_t why_size);

/* Sender name shape, the allowlist, and for read-only senders every command
 * word of text. */
int validator_check_sender(const ServerOptions *options, const char *sender, const char *text,
                           size_t len, char *why, size_t why_size);

#endif
