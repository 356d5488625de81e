/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON writer and a strict JSON (RFC 8259) reader.
 *
 * The writer fills a growable buffer.  Its calls do not return errors: the
 * first failure (allocation, the size cap, or misuse such as a value
 * without a key inside an object) is latched, later calls do nothing, and
 * uk_json_finish() returns it.  Output is always valid JSON: strings are
 * escaped and invalid UTF-8 bytes become U+FFFD.
 *
 * The reader (json_read.c, on json-c) builds a tree of values from one
 * JSON text; uaccessd parses control requests with it and uaccessctl the
 * replies.
 */
#ifndef UK_JSON_H
#define UK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* ---- writer ---- */

#define UK_JSON_WRITE_DEPTH	64	/* nesting the writer supports */

struct uk_json {
	char *buf;
	size_t len;
	size_t cap;
	size_t max;		/* output cap in bytes, excluding the NUL */
	int err;		/* first error, latched */
	unsigned int depth;
	bool key_done;		/* a key was written, its value is due */
	bool top_done;		/* a top-level value is complete */
	/* per level: bit 0 object (else array), bit 1 has members */
	uint8_t level[UK_JSON_WRITE_DEPTH + 1];
};

/* @max 0 means no cap of our own. */
void uk_json_init(struct uk_json *j, size_t max);
/* Frees the buffer; @j can be initialized again. */
void uk_json_release(struct uk_json *j);

/*
 * The latched error (0, -ENOMEM, -E2BIG over the cap, -EINVAL misuse) or
 * -EINVAL if a container or a key is still open.  On success *ret gets
 * the NUL-terminated text (free() it), *retlen its length, and @j is
 * empty again.  On failure @j is released.
 */
int uk_json_finish(struct uk_json *j, char **ret, size_t *retlen);
int uk_json_error(const struct uk_json *j);
/* Latches @err (negative errno) unless an error is latched already. */
void uk_json_fail(struct uk_json *j, int err);
size_t uk_json_len(const struct uk_json *j);

void uk_json_object_begin(struct uk_json *j);
void uk_json_object_end(struct uk_json *j);
void uk_json_array_begin(struct uk_json *j);
void uk_json_array_end(struct uk_json *j);
void uk_json_key(struct uk_json *j, const char *key);
void uk_json_str(struct uk_json *j, const char *s);	/* NULL: null */
void uk_json_strn(struct uk_json *j, const char *s, size_t n);
void uk_json_u64(struct uk_json *j, uint64_t v);
void uk_json_s64(struct uk_json *j, int64_t v);
void uk_json_bool(struct uk_json *j, bool v);
void uk_json_null(struct uk_json *j);
/* A number token written as given: the caller checked its syntax. */
void uk_json_number(struct uk_json *j, const char *s, size_t n);

/* Key and value in one call. */
void uk_json_kv_str(struct uk_json *j, const char *key, const char *s);
void uk_json_kv_u64(struct uk_json *j, const char *key, uint64_t v);
void uk_json_kv_s64(struct uk_json *j, const char *key, int64_t v);
void uk_json_kv_bool(struct uk_json *j, const char *key, bool v);

/*
 * After a complete top-level value: writes "\n" and lets another
 * top-level value follow (JSON lines).
 */
void uk_json_newline(struct uk_json *j);

/* ---- reader ---- */

#define UK_JSON_PARSE_DEPTH	32		/* nested arrays/objects */
#define UK_JSON_PARSE_MAX	(64u << 20)	/* input bytes */

enum uk_json_type {
	UK_JSON_NULL,
	UK_JSON_BOOL,
	UK_JSON_NUMBER,
	UK_JSON_STRING,
	UK_JSON_ARRAY,
	UK_JSON_OBJECT,
};

struct uk_json_value;

/*
 * Parses exactly one JSON text of @len bytes (no NUL needed; a NUL byte
 * anywhere is an error, so is anything but whitespace after the value).
 * An integer outside the 64-bit ranges, a NUL (\u0000) in an object key
 * and a number that overflows a double are errors too.  Returns 0 and the
 * tree in *ret, or -EINVAL with "offset N: reason" in @err, -E2BIG if
 * @len exceeds UK_JSON_PARSE_MAX, -ENOMEM.
 */
int uk_json_parse(const char *buf, size_t len, struct uk_json_value **ret,
		  char *err, size_t errlen);
void uk_json_value_free(struct uk_json_value *v);

/* UK_JSON_NULL for a NULL @v. */
enum uk_json_type uk_json_type(const struct uk_json_value *v);

/*
 * Typed getters.  -ENOENT when @v is NULL (so a missing key can be passed
 * straight in), -EINVAL when @v has another type (or, for the integer
 * getters, is not an integer literal, e.g. 1.5 or 1e3), -ERANGE when an
 * integer does not fit.  uk_json_get_str() refuses (-EINVAL) a string
 * with an embedded NUL (\u0000); uk_json_get_strn() gives any string and
 * its length.  Strings are NUL-terminated and live as long as the tree.
 */
int uk_json_get_bool(const struct uk_json_value *v, bool *ret);
int uk_json_get_u64(const struct uk_json_value *v, uint64_t *ret);
int uk_json_get_s64(const struct uk_json_value *v, int64_t *ret);
int uk_json_get_double(const struct uk_json_value *v, double *ret);
int uk_json_get_str(const struct uk_json_value *v, const char **ret);
int uk_json_get_strn(const struct uk_json_value *v, const char **ret,
		     size_t *len);

/*
 * The member @key of an object, NULL if absent or @v is not an object.  A
 * repeated key is one member: its first place, its last value.
 */
const struct uk_json_value *uk_json_object_get(const struct uk_json_value *v,
					       const char *key);
/* How many members; 0 when @v is not an object. */
size_t uk_json_object_len(const struct uk_json_value *v);

/* A place among an object's members; start from { 0 }. */
struct uk_json_iter {
	const char *key;
	const struct uk_json_value *value;
	const void *pos;	/* json-c's entry of the member */
};

/*
 * The member after it->key (the first for a new iterator), in input
 * order, in it->key and it->value; false after the last one, and at
 * once when @v is not an object.  Each step is O(1): json-c keeps the
 * members in a list beside its hash table.
 */
bool uk_json_object_next(const struct uk_json_value *v,
			 struct uk_json_iter *it);

/* for each member of the object @v: it.key, it.value */
#define uk_json_for_each_member(it, v)					\
	for (struct uk_json_iter it = { 0 }; uk_json_object_next((v), &it);)
/* 0 / NULL when @v is not an array or @i is out of range. */
size_t uk_json_array_len(const struct uk_json_value *v);
const struct uk_json_value *uk_json_array_at(const struct uk_json_value *v,
					     size_t i);

/*
 * Writes a parsed value with the writer: fractions and exponents as they
 * were written in the input, integers in their shortest form (-0 is 0).
 */
void uk_json_value_write(struct uk_json *j, const struct uk_json_value *v);

#endif /* UK_JSON_H */
