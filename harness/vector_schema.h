/* The vector schema, vectors/schemas/vector_file.schema.json, compiled into the tool: the
 * Makefile generates its definition (build/.../gen/vector_schema.c) from the file, so the
 * installed tool needs no data files and reads the very schema ci/validate_vectors.py reads. */
#ifndef NICREF_VECTOR_SCHEMA_H
#define NICREF_VECTOR_SCHEMA_H

extern const char vector_schema_json[]; /* the file's text, NUL-terminated */

#endif
