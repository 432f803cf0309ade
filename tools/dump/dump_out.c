// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_out.c - the emitter every dump.f2fs view writes through.
 *
 * Views describe their output once, as nested objects, lists and one-line rows of named
 * values; the emitter renders that as aligned text or as a JSON document.  Names are the
 * stable field names the man page documents, the same in both forms.
 */
#include "config.h"
#include <inttypes.h>
#include <string.h>

#include "dump.h"

#define TEXT_KEY_WIDTH 30

void out_init(struct out *o, FILE *f, bool json)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->json = json;
	o->depth = 1;
	o->first[1] = true;
	if (json)
		fputc('{', f);
}

void out_finish(struct out *o)
{
	if (o->json)
		fputs(o->first[1] ? "}\n" : "\n}\n", o->f);
	fflush(o->f);
}

static void indent(struct out *o, int n)
{
	for (int i = 0; i < n; i++)
		fputs("  ", o->f);
}

/* Byte length of a valid UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		len = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

static void json_string(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;

	fputc('"', o->f);
	for (size_t i = 0; i < n;) {
		size_t l;

		if (s[i] == '"' || s[i] == '\\') {
			fprintf(o->f, "\\%c", s[i++]);
			continue;
		}
		if (s[i] < 0x20 || s[i] == 0x7f) {
			fprintf(o->f, "\\u%04x", s[i++]);
			continue;
		}
		l = utf8_len(s + i, n - i);
		if (!l) {
			/* not UTF-8: keep the byte's value as a code point */
			fprintf(o->f, "\\u%04x", s[i++]);
			continue;
		}
		fwrite(s + i, 1, l, o->f);
		i += l;
	}
	fputc('"', o->f);
}

/* Text in a row: bare when unambiguous, otherwise quoted with C escapes. */
static void text_row_string(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;
	bool bare = n > 0;

	for (size_t i = 0; i < n && bare; i++)
		if (s[i] <= 0x20 || s[i] == '=' || s[i] == '"' || s[i] == '\\' || s[i] == 0x7f)
			bare = false;
	if (bare) {
		fwrite(s, 1, n, o->f);
		return;
	}
	fputc('"', o->f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			fprintf(o->f, "\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] == 0x7f)
			fprintf(o->f, "\\x%02x", s[i]);
		else
			fputc(s[i], o->f);
	}
	fputc('"', o->f);
}

/* Everything before a value: separators, indentation and the name. */
static void prefix(struct out *o, const char *key, bool scalar)
{
	int d = o->depth;

	if (o->json) {
		if (!o->first[d])
			fputc(',', o->f);
		if (o->row[d]) {
			if (!o->first[d])
				fputc(' ', o->f);
		} else {
			fputc('\n', o->f);
			indent(o, d);
		}
		if (key)
			fprintf(o->f, "\"%s\": ", key);
	} else if (o->row[d]) {
		if (!o->first[d])
			fputc(' ', o->f);
		if (key)
			fprintf(o->f, "%s=", key);
	} else {
		indent(o, d - 1);
		if (key && scalar)
			fprintf(o->f, "%-*s ", TEXT_KEY_WIDTH - 2 * (d - 1), key);
		else if (key)
			fprintf(o->f, "%s:\n", key);
		else if (!scalar)
			fputs("-\n", o->f);   /* an unnamed object in a list */
	}
	o->first[d] = false;
}

static void push(struct out *o, bool row)
{
	if (o->depth + 1 < OUT_MAX_DEPTH)
		o->depth++;
	o->first[o->depth] = true;
	o->row[o->depth] = row;
}

static void scalar_end(struct out *o)
{
	if (!o->json && !o->row[o->depth])
		fputc('\n', o->f);
}

void out_obj(struct out *o, const char *key)
{
	prefix(o, key, false);
	if (o->json)
		fputc('{', o->f);
	push(o, false);
}

static void close_block(struct out *o, char c)
{
	bool empty = o->first[o->depth];

	if (o->depth > 1)
		o->depth--;
	if (!o->json)
		return;
	if (!empty) {
		fputc('\n', o->f);
		indent(o, o->depth);
	}
	fputc(c, o->f);
}

void out_obj_end(struct out *o)
{
	close_block(o, '}');
}

void out_list(struct out *o, const char *key)
{
	prefix(o, key, false);
	if (o->json)
		fputc('[', o->f);
	push(o, false);
}

void out_list_end(struct out *o)
{
	close_block(o, ']');
}

void out_row(struct out *o)
{
	prefix(o, NULL, true);
	if (o->json)
		fputc('{', o->f);
	push(o, true);
}

void out_row_end(struct out *o)
{
	if (o->depth > 1)
		o->depth--;
	fputs(o->json ? "}" : "\n", o->f);
}

void out_u(struct out *o, const char *key, uint64_t v)
{
	prefix(o, key, true);
	fprintf(o->f, "%" PRIu64, v);
	scalar_end(o);
}

void out_f2(struct out *o, const char *key, double v)
{
	prefix(o, key, true);
	fprintf(o->f, "%.2f", v);
	scalar_end(o);
}

void out_x(struct out *o, const char *key, uint64_t v)
{
	prefix(o, key, true);
	if (!o->json && !o->row[o->depth])
		fprintf(o->f, "%" PRIu64 " (0x%" PRIx64 ")", v, v);
	else
		fprintf(o->f, "%" PRIu64, v);
	scalar_end(o);
}

void out_i(struct out *o, const char *key, int64_t v)
{
	prefix(o, key, true);
	fprintf(o->f, "%" PRId64, v);
	scalar_end(o);
}

void out_sn(struct out *o, const char *key, const void *s, size_t len)
{
	prefix(o, key, true);
	if (o->json)
		json_string(o, s, len);
	else if (o->row[o->depth])
		text_row_string(o, s, len);
	else
		fwrite(s, 1, len, o->f);
	scalar_end(o);
}

void out_s(struct out *o, const char *key, const char *s)
{
	out_sn(o, key, s, strlen(s));
}

void out_b(struct out *o, const char *key, bool v)
{
	prefix(o, key, true);
	fputs(o->json ? (v ? "true" : "false") : (v ? "yes" : "no"), o->f);
	scalar_end(o);
}

void out_null(struct out *o, const char *key)
{
	prefix(o, key, true);
	fputs(o->json ? "null" : "-", o->f);
	scalar_end(o);
}

void out_hex(struct out *o, const char *key, const void *buf, size_t len)
{
	const uint8_t *b = buf;

	prefix(o, key, true);
	if (o->json)
		fputc('"', o->f);
	for (size_t i = 0; i < len; i++)
		fprintf(o->f, "%02x", b[i]);
	if (o->json)
		fputc('"', o->f);
	scalar_end(o);
}

void out_u_array(struct out *o, const char *key, const uint64_t *v, size_t n)
{
	prefix(o, key, true);
	if (o->json)
		fputc('[', o->f);
	for (size_t i = 0; i < n; i++)
		fprintf(o->f, o->json ? "%s%" PRIu64 : "%s%" PRIu64, i ? (o->json ? ", " : " ") : "",
			v[i]);
	if (o->json)
		fputc(']', o->f);
	scalar_end(o);
}
