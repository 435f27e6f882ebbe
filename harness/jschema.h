/* A JSON Schema (draft-07) interpreter for exactly the keywords the vector schema
 * (vectors/schemas/vector_file.schema.json) uses. A schema using any other keyword, a $ref
 * that resolves nowhere or a pattern outside the regex subset of jsregex.h is refused when it
 * is compiled: the runner and ci/validate_vectors.py read the same schema file, and a keyword
 * the runner would silently skip is how the two would drift apart.
 *
 * Keywords: $schema, $id, $comment, title, description (annotations); type, const, enum;
 * properties, required, additionalProperties (a schema or false), minProperties,
 * maxProperties; items (one schema), minItems, maxItems; pattern, minLength, maxLength;
 * minimum, maximum (integers); allOf, anyOf, oneOf, if/then; $ref ("#/definitions/NAME", alone
 * in its object, as draft-07 ignores its siblings) and definitions (at the root).
 *
 * Where it reads stricter than a draft-07 validator (the runner is the authority):
 *   - "integer" is a JSON integer: 1.0 is not one;
 *   - `title` names what a schema accepts, and a value that fails a titled schema is reported
 *     as one message, `<value> is not <title>`, rather than as the failures inside it;
 *   - when no alternative of anyOf/oneOf holds, the failures of the one alternative whose
 *     types admit the value are reported (else the schema's title, else a generic line). */
#ifndef NICREF_JSCHEMA_H
#define NICREF_JSCHEMA_H

#include <jansson.h>
#include <stddef.h>

#define JPATH_MAX 32

/* Where in the instance: keys (key != NULL) and array indices, from the root. */
struct jpath {
	struct {
		const char *key;
		size_t index;
	} seg[JPATH_MAX];
	unsigned n;
};

struct jschema;

/* NULL with a message in err when the schema uses anything outside the supported subset. The
 * schema is copied. */
struct jschema *jschema_compile(const json_t *schema, char *err, size_t errlen);
void jschema_free(struct jschema *s);

/* Each failure, with where it is and a one-line message (no trailing newline). */
typedef void (*jschema_report_fn)(void *ctx, const struct jpath *where, const char *msg);

/* Validates inst; returns the number of failures reported. */
size_t jschema_validate(const struct jschema *s, const json_t *inst, jschema_report_fn report,
			void *ctx);

/* A JSON value, compact, cut to about `len` bytes ("..." when cut): for messages. */
void jschema_value_text(const json_t *v, char *buf, size_t len);

#endif
