/* A gzip'ed file decompressed ahead of its reader by a thread (see
 * gzpipe.h). The thread fills a ring of blocks with inflate's output; the
 * reader copies out of the oldest one. The thread's last block is empty
 * (n = 0, or -1 for an error) and the stream's end is set before it. */
#include "gzpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cleanup.h"

#define NBLOCKS          4
#define BLOCK_BYTES      (1 << 18)
#define SYNC_BLOCK_BYTES (1 << 16)
#define IN_BYTES         (1 << 16)

struct block {
	char *buf;
	long n; /* > 0 bytes, 0 the end, < 0 an error */
};

/* The thread's side: the file and the decompressor. */
struct source {
	int fd;
	int eof;       /* read() said the end */
	int gzip;      /* -1 not known yet, 0 plain file, 1 gzip */
	int in_member; /* inflate is inside a member (its trailer not yet read) */
	int zinit;     /* z initialised */
	z_stream z;
	unsigned char in[IN_BYTES];
};

struct cmn_gzpipe {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct block b[NBLOCKS];
	unsigned long made, used; /* blocks filled by the thread, emptied by the reader */
	size_t off;               /* the reader's offset in block used % NBLOCKS */
	int ahead;                /* a thread fills the blocks (else the reader does) */
	int nb;                   /* blocks in the ring: NBLOCKS ahead, else 1 */
	size_t bsize;             /* bytes of a block */
	int stop;                 /* the reader closed: the thread ends */
	enum cmn_gz_end end;      /* set by the thread before its last block */
	char msg[256];
	struct source src;
};

/* Reads the file after the `keep` unread bytes, which move to the start
 * of the input buffer: 0, or -1 (p->msg set) on a read error. */
static int read_after(struct cmn_gzpipe *p, uInt keep)
{
	struct source *s = &p->src;
	if (keep)
		memmove(s->in, s->z.next_in, keep);
	ssize_t n;
	do
		n = read(s->fd, s->in + keep, IN_BYTES - keep);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(p->msg, sizeof p->msg, "%s", strerror(errno));
		return -1;
	}
	s->eof = n == 0;
	s->z.next_in = s->in;
	s->z.avail_in = keep + (uInt)n;
	return 0;
}

/* More input when z has none: 0, or -1 (p->msg set) on a read error. */
static int refill(struct cmn_gzpipe *p)
{
	struct source *s = &p->src;
	return s->z.avail_in || s->eof ? 0 : read_after(p, 0);
}

/* Decides plain or gzip from the first two bytes (fewer: plain). */
static int sniff(struct cmn_gzpipe *p)
{
	struct source *s = &p->src;
	if (!s->z.next_in)
		s->z.next_in = s->in;
	while (s->z.avail_in < 2 && !s->eof)
		if (read_after(p, s->z.avail_in))
			return -1;
	s->gzip = s->z.avail_in >= 2 && s->z.next_in[0] == 0x1f && s->z.next_in[1] == 0x8b;
	if (s->gzip) {
		if (inflateInit2(&s->z, 15 + 16) != Z_OK) {
			snprintf(p->msg, sizeof p->msg, "out of memory");
			return -1;
		}
		s->zinit = 1;
		s->in_member = 1;
	}
	return 0;
}

/* Fills out[0..cap) as far as the stream goes: the bytes, or 0 with
 * p->end set, or -1 with p->end and p->msg set. */
static long produce(struct cmn_gzpipe *p, char *out, size_t cap)
{
	struct source *s = &p->src;
	if (s->gzip < 0 && sniff(p))
		return p->end = CMN_GZ_IO, -1;
	if (!s->gzip) { /* plain: what is left of the sniffed bytes, then the file */
		if (s->z.avail_in) {
			size_t k = s->z.avail_in < cap ? s->z.avail_in : cap;
			memcpy(out, s->z.next_in, k);
			s->z.next_in += k;
			s->z.avail_in -= (uInt)k;
			return (long)k;
		}
		if (refill(p))
			return p->end = CMN_GZ_IO, -1;
		if (s->z.avail_in == 0)
			return p->end = CMN_GZ_END, 0;
		return produce(p, out, cap);
	}
	s->z.next_out = (unsigned char *)out;
	s->z.avail_out = (uInt)cap;
	while (s->z.avail_out) {
		if (refill(p))
			return p->end = CMN_GZ_IO, -1;
		if (!s->in_member) { /* between members: another, zero padding or the end */
			while (s->z.avail_in && s->z.next_in[0] == 0)
				s->z.next_in++, s->z.avail_in--;
			if (s->z.avail_in == 0 && s->eof)
				break;
			if (s->z.avail_in == 0)
				continue;
			if (s->z.next_in[0] != 0x1f) {
				snprintf(p->msg, sizeof p->msg,
				         "data after the end of the gzip stream");
				return p->end = CMN_GZ_CORRUPT, -1;
			}
			inflateReset(&s->z);
			s->in_member = 1;
		}
		if (s->z.avail_in == 0 && s->eof) { /* inside a member: cut short */
			if (s->z.avail_out < cap)
				break; /* its bytes first */
			return p->end = CMN_GZ_CUT, 0;
		}
		int rc = inflate(&s->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END)
			s->in_member = 0;
		else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(p->msg, sizeof p->msg, "%s",
			         s->z.msg            ? s->z.msg
			         : rc == Z_MEM_ERROR ? "out of memory"
			                             : "bad data");
			return p->end = CMN_GZ_CORRUPT, -1;
		}
	}
	long got = (long)(cap - s->z.avail_out);
	if (got == 0)
		p->end = CMN_GZ_END;
	return got;
}

static void *fill(void *arg)
{
	struct cmn_gzpipe *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (p->made - p->used == (unsigned)p->nb && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		int stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			return NULL;
		struct block *b = &p->b[p->made % (unsigned)p->nb]; /* the reader is not in it */
		long n = produce(p, b->buf, p->bsize);
		pthread_mutex_lock(&p->mu);
		b->n = n;
		p->made++;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (n <= 0)
			return NULL;
	}
}

static void free_pipe(struct cmn_gzpipe *p)
{
	if (p->src.zinit)
		inflateEnd(&p->src.z);
	if (p->src.fd >= 0)
		close(p->src.fd);
	for (int k = 0; k < NBLOCKS; k++)
		free(p->b[k].buf);
	free(p);
}

int cmn_gzpipe_open(const char *path, int ahead, struct cmn_gzpipe **out, struct cmn_err *e)
{
	*out = NULL;
	struct cmn_gzpipe *p = calloc(1, sizeof *p);
	if (!p)
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	p->src.fd = -1;
	p->src.gzip = -1;
	p->ahead = ahead;
	p->nb = ahead ? NBLOCKS : 1;
	p->bsize = ahead ? BLOCK_BYTES : SYNC_BLOCK_BYTES;
	for (int k = 0; k < p->nb; k++)
		if (!(p->b[k].buf = malloc(p->bsize))) {
			free_pipe(p);
			return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
		}
	p->src.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->src.fd < 0) {
		int err = errno;
		free_pipe(p);
		return cmn_err_set(e, CMN_EIO, "%s: error: cannot open: %s", path, strerror(err));
	}
	if (!ahead) {
		*out = p;
		return 0;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	int rc = cmn_cleanup_thread(&p->thread, fill, p);
	if (rc) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
		free_pipe(p);
		return cmn_err_set(e, CMN_ENOMEM, "%s: cannot start a reader thread: %s", path,
		                   strerror(rc));
	}
	*out = p;
	return 0;
}

long cmn_gzpipe_read(struct cmn_gzpipe *p, char *buf, size_t len)
{
	if (!p->ahead && p->made == p->used) { /* the reader fills its one block */
		struct block *b = &p->b[p->made % (unsigned)p->nb];
		b->n = produce(p, b->buf, p->bsize);
		p->made++;
	} else if (p->ahead) {
		pthread_mutex_lock(&p->mu);
		while (p->made == p->used)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
	}
	struct block *b = &p->b[p->used % (unsigned)p->nb]; /* the thread is not in it */
	if (b->n <= 0)
		return b->n; /* the end stays the end */
	size_t k = (size_t)b->n - p->off;
	if (k > len)
		k = len;
	memcpy(buf, b->buf + p->off, k);
	p->off += k;
	if (p->off == (size_t)b->n) {
		p->off = 0;
		if (p->ahead)
			pthread_mutex_lock(&p->mu);
		p->used++;
		if (p->ahead) {
			pthread_cond_broadcast(&p->cv);
			pthread_mutex_unlock(&p->mu);
		}
	}
	return (long)k;
}

enum cmn_gz_end cmn_gzpipe_end(const struct cmn_gzpipe *p, const char **msg)
{
	/* set before the last block, which the reader has seen under the lock */
	*msg = p->msg;
	return p->end;
}

void cmn_gzpipe_close(struct cmn_gzpipe *p)
{
	if (!p)
		return;
	if (!p->ahead) {
		free_pipe(p);
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free_pipe(p);
}
