/* The regular expressions of JSON Schema `pattern` (ECMA-262 dialect), in the small subset the
 * vector schema needs, matched the ECMA way: a pattern matches when it matches anywhere in the
 * string (anchor it with ^ and $), `$` matches only at the very end, `\n` is a newline also
 * inside brackets, `.` and negated classes take one whole UTF-8 character.
 *
 * POSIX regcomp would read the same text differently (`[\n]` there is a backslash or an n), and
 * Python's `$` also matches before a final newline; so the runner does not borrow either, and
 * anything outside this subset is refused when the pattern is compiled (fail closed):
 *   literals, `.`, `^`, `$`, groups `( | )`, classes `[a-z_]` / `[^...]` (ASCII only),
 *   quantifiers `* + ? {n} {n,} {n,m}` (greedy), escapes \d \D \w \W \s \S \n \r \t \f \v
 *   and an escaped punctuation character.
 * Refused: lazy quantifiers, `(?...)`, backreferences, \b \B \u \x \c \p \0 and the like. */
#ifndef NICREF_JSREGEX_H
#define NICREF_JSREGEX_H

#include <stdbool.h>
#include <stddef.h>

struct jsregex;

/* NULL with a message in err when the pattern is outside the subset (or memory ran out). */
struct jsregex *jsregex_compile(const char *pattern, char *err, size_t errlen);
void jsregex_free(struct jsregex *re);
/* Whether the pattern matches somewhere in s[0..len). */
bool jsregex_search(const struct jsregex *re, const char *s, size_t len);

#endif
