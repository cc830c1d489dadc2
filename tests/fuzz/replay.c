// SPDX-License-Identifier: MIT
/*
 * Replays fuzz inputs through the fuzz target without libFuzzer (built with the sim toolchain and
 * its sanitizers): every file named, and every file in every directory named. A crash or a
 * violated contract kills the process; otherwise it prints how many inputs it ran.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spe_fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap);
			if (!buf) {
				fclose(f);
				return -1;
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* an exact-size copy, so that ASan sees a read one byte past the input */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	free(buf);
	return 0;
}

static int replay_dir(const char *dir, unsigned int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int rc = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (replay_file(path))
			rc = -1;
		else
			(*count)++;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int count = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &count) ? 1 : 0;
		} else {
			rc |= replay_file(argv[i]) ? 1 : 0;
			count += 1;
		}
	}
	printf("%s: %u inputs replayed\n",
	       strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0], count);
	return rc;
}
