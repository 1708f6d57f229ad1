/* What every fuzz harness shares: the input written to a file of this
 * process's own (the parsers read paths), rewritten for each input. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Where the harnesses write: /dev/shm when there is one (no disk). */
static inline const char *fuzz_tmpdir(void)
{
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* The path of a file holding data[0..size) (NULL when it cannot be
 * written: the input is then skipped), unlinked before each rewrite: truncating a file on ext4 and
 * writing it again flushes it at close (auto_da_alloc), 3 ms per input, which made the harnesses
 * twenty times slower than their parsers. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[128];
	if (!path[0])
		snprintf(path, sizeof path, "%s/placesim-fuzz-%ld%s", fuzz_tmpdir(), (long)getpid(),
		         suffix);
	unlink(path);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	int ok = fwrite(data, 1, size, f) == size;
	ok &= fclose(f) == 0;
	return ok ? path : NULL;
}

/* data[0..size) as a NUL-terminated string (caller frees). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		for (size_t i = 0; i < size; i++)
			s[i] = data[i] ? (char)data[i] : ' ';
		s[size] = '\0';
	}
	return s;
}

#endif
