/* The read-ahead gzip reader (common/gzpipe.h): the file's bytes in
 * order, for any read size and across many of its blocks, gzip'ed (one or
 * several members) or plain; a file cut anywhere inside a member ends as
 * CUT after every byte before the cut (also where zlib's gzread reports a
 * clean end); damaged data and bytes after the last member are CORRUPT;
 * closing early stops the thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../helpers.h"
#include "gzpipe.h"

#define CONTENT_BYTES (5u << 20) /* twenty of its blocks, exactly */

/* Lines of varying length, a deterministic pseudo-random text. */
static char *content(void)
{
	char *c = malloc(CONTENT_BYTES);
	unsigned x = 12345;
	for (size_t i = 0; c && i < CONTENT_BYTES; i++) {
		x = x * 1103515245u + 12345u;
		c[i] = (x >> 16) % 23 == 0 ? '\n' : (char)('0' + (x >> 16) % 10);
	}
	return c;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	CU_ASSERT_FATAL(f != NULL);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fclose(f);
	return size;
}

/* data[0..n) gzip'ed in `members` members (or plain when members is 0),
 * then `extra` bytes appended, then the file cut to `keep` bytes (when
 * keep >= 0). */
static char *write_file(const char *data, size_t n, int members, const char *extra, size_t extra_n,
                        long keep)
{
	char *path = th_write_temp("", members ? ".gz" : ".txt");
	CU_ASSERT_FATAL(path != NULL);
	if (members == 0) {
		FILE *f = fopen(path, "wb");
		CU_ASSERT_FATAL(f && fwrite(data, 1, n, f) == n && fclose(f) == 0);
	}
	for (int m = 0; m < members; m++) {
		size_t a = n * (size_t)m / (size_t)members,
		       b = n * (size_t)(m + 1) / (size_t)members;
		gzFile g = gzopen(path, m ? "ab1" : "wb1"); /* fast */
		CU_ASSERT_FATAL(g != NULL);
		CU_ASSERT_FATAL(b == a || gzwrite(g, data + a, (unsigned)(b - a)) == (int)(b - a));
		CU_ASSERT_FATAL(gzclose(g) == Z_OK);
	}
	if (extra_n) {
		FILE *f = fopen(path, "ab");
		CU_ASSERT_FATAL(f && fwrite(extra, 1, extra_n, f) == extra_n && fclose(f) == 0);
	}
	if (keep >= 0)
		CU_ASSERT_FATAL(truncate(path, keep) == 0);
	return path;
}

/* Reads path to its end with or without its thread, in pieces of `step`
 * bytes into out (room for cap); the bytes read, how it ended and the
 * last read's result. */
static size_t read_mode(const char *path, int ahead, char *out, size_t cap, size_t step,
                        enum cmn_gz_end *end, long *last)
{
	struct cmn_gzpipe *p;
	struct cmn_err e;
	CU_ASSERT_FATAL(cmn_gzpipe_open(path, ahead, &p, &e) == 0);
	size_t have = 0;
	for (;;) {
		size_t want = cap - have < step ? cap - have : step;
		long n = cmn_gzpipe_read(p, out + have, want);
		if (n <= 0) {
			*last = n;
			CU_ASSERT(cmn_gzpipe_read(p, out + have, 1) == n); /* the end stays */
			break;
		}
		have += (size_t)n;
	}
	const char *msg;
	*end = cmn_gzpipe_end(p, &msg);
	cmn_gzpipe_close(p);
	return have;
}

/* read_mode with the thread, checked equal to the same without it. */
static size_t read_all(const char *path, char *out, size_t cap, size_t step, enum cmn_gz_end *end,
                       long *last)
{
	size_t got = read_mode(path, 1, out, cap, step, end, last);
	char *again = malloc(cap);
	CU_ASSERT_FATAL(again != NULL);
	enum cmn_gz_end end0;
	long last0;
	size_t got0 = read_mode(path, 0, again, cap, step, &end0, &last0);
	CU_ASSERT(got0 == got && memcmp(again, out, got) == 0 && end0 == *end && last0 == *last);
	free(again);
	return got;
}

static void test_same_bytes(void)
{
	char *c = content(), *out = malloc(CONTENT_BYTES + 1);
	CU_ASSERT_FATAL(c && out);
	const int members[] = {1, 3, 0};
	const size_t steps[] = {1 << 16, 4093, 300000, CONTENT_BYTES + 1};
	for (size_t m = 0; m < sizeof members / sizeof *members; m++) {
		char *path = write_file(c, CONTENT_BYTES, members[m], NULL, 0, -1);
		for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
			enum cmn_gz_end end;
			long last;
			size_t got = read_all(path, out, CONTENT_BYTES + 1, steps[k], &end, &last);
			CU_ASSERT(got == CONTENT_BYTES && memcmp(out, c, CONTENT_BYTES) == 0);
			CU_ASSERT(end == CMN_GZ_END && last == 0);
		}
		th_free_temp(path);
	}
	/* tiny files: empty, one byte, one gzip'ed byte, an empty member */
	const char *texts[] = {"", "x", "x", ""};
	const int tiny_members[] = {0, 0, 1, 1};
	for (int t = 0; t < 4; t++) {
		char *path = write_file(texts[t], strlen(texts[t]), tiny_members[t], NULL, 0, -1);
		enum cmn_gz_end end;
		long last;
		size_t got = read_all(path, out, 16, 16, &end, &last);
		CU_ASSERT(got == strlen(texts[t]) && memcmp(out, texts[t], got) == 0);
		CU_ASSERT(end == CMN_GZ_END && last == 0);
		th_free_temp(path);
	}
	free(out);
	free(c);
}

/* A member's bytes cut anywhere: every byte before the cut, then CUT. The
 * first cut (the trailer's last 4 bytes, output ending on a block
 * boundary) is one zlib's gzread reads as a clean end. */
static void test_cut_short(void)
{
	char *c = content(), *out = malloc(CONTENT_BYTES + 1);
	CU_ASSERT_FATAL(c && out);
	char *whole = write_file(c, CONTENT_BYTES, 1, NULL, 0, -1);
	long size = file_size(whole);
	unsigned char *gz = malloc((size_t)size);
	FILE *f = fopen(whole, "rb");
	CU_ASSERT_FATAL(gz && f && fread(gz, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	for (long keep = size - 4, i = 0; keep > 2; keep = size * (29 - ++i) / 29) {
		f = fopen(whole, "wb");
		CU_ASSERT_FATAL(f && fwrite(gz, 1, (size_t)keep, f) == (size_t)keep &&
		                fclose(f) == 0);
		enum cmn_gz_end end;
		long last;
		size_t got = read_all(whole, out, CONTENT_BYTES + 1, 1 << 16, &end, &last);
		CU_ASSERT(got <= CONTENT_BYTES && memcmp(out, c, got) == 0);
		CU_ASSERT(end == CMN_GZ_CUT && last == 0);
		if (end != CMN_GZ_CUT)
			fprintf(stderr, "cut to %ld of %ld bytes: end %d\n", keep, size, (int)end);
	}
	th_free_temp(whole);
	free(gz);
	free(out);
	free(c);
}

static void test_corrupt(void)
{
	char *c = content(), *out = malloc(CONTENT_BYTES + 1);
	CU_ASSERT_FATAL(c && out);
	/* trailing zero padding is accepted; other trailing bytes are not */
	const char zeros[512] = {0}, junk[] = "junk after the stream";
	char *path = write_file(c, CONTENT_BYTES, 1, zeros, sizeof zeros, -1);
	enum cmn_gz_end end;
	long last;
	size_t got = read_all(path, out, CONTENT_BYTES + 1, 1 << 16, &end, &last);
	CU_ASSERT(got == CONTENT_BYTES && end == CMN_GZ_END && last == 0);
	th_free_temp(path);
	path = write_file(c, CONTENT_BYTES, 1, junk, sizeof junk - 1, -1);
	read_all(path, out, CONTENT_BYTES + 1, 1 << 16, &end, &last);
	CU_ASSERT(end == CMN_GZ_CORRUPT && last < 0);
	th_free_temp(path);
	/* a byte of the compressed data changed: an inflate error or a CRC mismatch */
	path = write_file(c, CONTENT_BYTES, 1, NULL, 0, -1);
	FILE *f = fopen(path, "r+b");
	CU_ASSERT_FATAL(f != NULL);
	fseek(f, file_size(path) / 2, SEEK_SET);
	int byte = fgetc(f);
	fseek(f, file_size(path) / 2, SEEK_SET);
	fputc(byte ^ 0x55, f);
	fclose(f);
	struct cmn_gzpipe *p;
	struct cmn_err e;
	CU_ASSERT_FATAL(cmn_gzpipe_open(path, 1, &p, &e) == 0);
	long n;
	while ((n = cmn_gzpipe_read(p, out, 1 << 16)) > 0)
		;
	const char *msg = NULL;
	CU_ASSERT(n < 0 && cmn_gzpipe_end(p, &msg) == CMN_GZ_CORRUPT && msg && msg[0]);
	cmn_gzpipe_close(p);
	th_free_temp(path);
	free(out);
	free(c);
}

static void test_missing_and_early_close(void)
{
	struct cmn_gzpipe *p = (struct cmn_gzpipe *)&p;
	struct cmn_err e;
	CU_ASSERT(cmn_gzpipe_open("/nonexistent/x.swf.gz", 1, &p, &e) == CMN_EIO);
	CU_ASSERT(p == NULL);
	CU_ASSERT(strstr(e.msg, "/nonexistent/x.swf.gz: error: cannot open:") == e.msg);
	cmn_gzpipe_close(NULL);
	char *c = content();
	CU_ASSERT_FATAL(c != NULL);
	char *path = write_file(c, CONTENT_BYTES, 1, NULL, 0, -1);
	char buf[100];
	CU_ASSERT_FATAL(cmn_gzpipe_open(path, 1, &p, &e) == 0);
	CU_ASSERT(cmn_gzpipe_read(p, buf, sizeof buf) == sizeof buf);
	CU_ASSERT(memcmp(buf, c, sizeof buf) == 0);
	cmn_gzpipe_close(p); /* with the thread blocked on a full ring: no hang */
	th_free_temp(path);
	free(c);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("gzpipe", NULL, NULL);
	CU_add_test(s, "the file's bytes for every read size, members, plain", test_same_bytes);
	CU_add_test(s, "cut anywhere in a member: its bytes, then CUT", test_cut_short);
	CU_add_test(s, "damaged data, bytes after the stream: CORRUPT", test_corrupt);
	CU_add_test(s, "a missing file; closing early", test_missing_and_early_close);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
